package loader

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/record"
)

// DBs says where Load puts the databases of its input: Move puts an input of one database
// into To, whichever it is; an input of several is an error naming them unless Map says
// where each one goes. The zero DBs leaves every database where it is.
type DBs struct {
	To   int         // the database the input's one database goes to, when Move is set
	Move bool        // the input's one database goes to To
	Map  map[int]int // from → to, or nil
}

// ParseDBMap parses a map of databases written "0=5,3=6" (load's --db-map).
func ParseDBMap(s string) (map[int]int, error) {
	m := map[int]int{}
	bad := func(part, why string) (map[int]int, error) {
		return nil, fmt.Errorf("%q %s (want FROM=TO,…, e.g. 0=5,3=6)", part, why)
	}
	for part := range strings.SplitSeq(s, ",") {
		from, to, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return bad(part, "has no '='")
		}
		f, err1 := strconv.Atoi(strings.TrimSpace(from))
		t, err2 := strconv.Atoi(strings.TrimSpace(to))
		switch {
		case err1 != nil || err2 != nil:
			return bad(part, "is not two database numbers")
		case f < 0 || t < 0 || f > record.MaxDB || t > record.MaxDB:
			return bad(part, fmt.Sprintf("is out of range (0 to %d)", record.MaxDB))
		}
		if _, dup := m[f]; dup {
			return bad(part, fmt.Sprintf("maps database %d a second time", f))
		}
		m[f] = t
	}
	return m, nil
}

// DBMapString writes m as ParseDBMap reads it, sorted by the database it maps.
func DBMapString(m map[int]int) string {
	var parts []string
	for _, from := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d=%d", from, m[from]))
	}
	return strings.Join(parts, ",")
}

// Targets returns the databases keys may go to.
func (d DBs) Targets() []int {
	if d.Move {
		return []int{d.To}
	}
	return slices.Collect(maps.Values(d.Map))
}

// Place returns the database that the input's database db goes to, given the databases
// seen before it (sorted), or an error naming the input's databases and the way out.
func (d DBs) Place(db int, seen []int) (int, error) {
	switch {
	case d.Move && len(seen) > 0 && !slices.Contains(seen, db):
		all := append(slices.Clone(seen), db)
		slices.Sort(all)
		return 0, fmt.Errorf("the input holds databases %s, and --db %d moves one: say where each goes with --db-map %s",
			joinInts(all), d.To, exampleMap(all, d.To))
	case d.Move:
		return d.To, nil
	case d.Map != nil:
		to, ok := d.Map[db]
		if !ok {
			return 0, fmt.Errorf("the input's database %d has no place in --db-map %s: add %d=N", db, DBMapString(d.Map), db)
		}
		return to, nil
	}
	return db, nil
}

// MapDB returns the Options.MapDB of an input whose databases come as it is read, or nil
// when each database stays where it is.
func (d DBs) MapDB() func(int) (int, error) {
	if !d.Move && d.Map == nil {
		return nil
	}
	var seen []int
	return func(db int) (int, error) {
		to, err := d.Place(db, seen)
		if err == nil && !slices.Contains(seen, db) {
			seen = append(seen, db)
		}
		return to, err
	}
}

// Moves returns where each of dbs (sorted, as a spec lists its databases) goes, before
// anything is loaded.
func (d DBs) Moves(dbs []int) (map[int]int, error) {
	to := map[int]int{}
	for i, db := range dbs {
		t, err := d.Place(db, dbs[:i])
		if err != nil {
			return nil, err
		}
		to[db] = t
	}
	return to, nil
}

// CheckInput reads src, the input file path (not stdin), for its databases and checks that
// each has a place, so that an input of several databases moved by Move is refused before
// anything is loaded; readErr words an error of reading it. The databases of stdin are
// checked as they come.
func (d DBs) CheckInput(ctx context.Context, src record.Source, path string, readErr func(error) error) error {
	if (!d.Move && d.Map == nil) || path == "-" {
		return nil
	}
	var l dbLister
	if err := src.WriteTo(ctx, &l); err != nil {
		return readErr(err)
	}
	slices.Sort(l.dbs)
	for i, db := range l.dbs {
		if _, err := d.Place(db, l.dbs[:i]); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// A dbLister is a record.Sink that lists the databases it is given and drops the rest
// (function libraries too: they belong to no database).
type dbLister struct {
	record.Discard
	dbs []int
}

func (l *dbLister) BeginDB(db int, _ record.Counts) error {
	if !slices.Contains(l.dbs, db) {
		l.dbs = append(l.dbs, db)
	}
	return nil
}

// joinInts joins numbers with commas and "and".
func joinInts(n []int) string {
	s := make([]string, len(n))
	for i, x := range n {
		s[i] = strconv.Itoa(x)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// exampleMap suggests a map for dbs: the first to to, the others to N.
func exampleMap(dbs []int, to int) string {
	parts := make([]string, len(dbs))
	for i, db := range dbs {
		if i == 0 {
			parts[i] = fmt.Sprintf("%d=%d", db, to)
		} else {
			parts[i] = fmt.Sprintf("%d=N", db)
		}
	}
	return strings.Join(parts, ",")
}
