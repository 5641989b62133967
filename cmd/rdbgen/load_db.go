package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// Where load puts the databases of its input: --db N (or the db of --url) moves an input of
// one database into N, whichever it is (a dataset's keys go to N); an input of several is an
// error naming them unless --db-map says where each one goes.

// loadDBs is what --db, --db-map and the database of --url say.
type loadDBs struct {
	to     int         // the database --db or --url names, when move is set
	move   bool        // the input's one database goes to to
	dbMap  map[int]int // --db-map: from → to, or nil
	urlSet bool        // to comes from --url
}

// dbMapFlag is load's --db-map.
func dbMapFlag() cli.Flag {
	return &cli.StringFlag{Name: "db-map", Usage: "with an input of several databases: where each goes, FROM=TO,… (e.g. 0=5,3=6); every database of the input needs one", Category: "Input"}
}

// parseDBMap parses --db-map "0=5,3=6".
func parseDBMap(s string) (map[int]int, error) {
	m := map[int]int{}
	bad := func(part, why string) (map[int]int, error) {
		return nil, fmt.Errorf("--db-map %q: %q %s (want FROM=TO,…, e.g. 0=5,3=6)", s, part, why)
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

// String describes m as --db-map takes it.
func dbMapString(m map[int]int) string {
	var parts []string
	for _, from := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d=%d", from, m[from]))
	}
	return strings.Join(parts, ",")
}

// loadDBsFromFlags reads --db, --db-map and the database of --url (urlDB, -1 when the URL
// names none) for an input that is not the built-in dataset.
func loadDBsFromFlags(c *cli.Context, urlDB int) (loadDBs, error) {
	var d loadDBs
	if c.IsSet("db") {
		d.to, d.move = c.Int("db"), true
		if d.to < 0 || d.to > record.MaxDB {
			return d, fmt.Errorf("--db %d out of range (0 to %d)", d.to, record.MaxDB)
		}
	}
	if urlDB >= 0 {
		if d.move && urlDB != d.to {
			return d, fmt.Errorf("--db %d disagrees with the database %d of --url: give one", d.to, urlDB)
		}
		d.to, d.move, d.urlSet = urlDB, true, true
	}
	if c.IsSet("db-map") {
		if d.move {
			what := "--db"
			if d.urlSet {
				what = "--url's database"
			}
			return d, fmt.Errorf("%s and --db-map both say where the keys go: give one", what)
		}
		m, err := parseDBMap(c.String("db-map"))
		if err != nil {
			return d, err
		}
		d.dbMap = m
	}
	if c.Bool("cluster") {
		for _, to := range d.targets() {
			if to != 0 {
				return d, fmt.Errorf("database %d: a cluster has database 0 only", to)
			}
		}
	}
	return d, nil
}

// targets returns the databases keys may go to.
func (d loadDBs) targets() []int {
	if d.move {
		return []int{d.to}
	}
	return slices.Collect(maps.Values(d.dbMap))
}

// place returns the database that the input's database db goes to, given the databases
// seen before it (sorted), or an error naming the input's databases and the way out.
func (d loadDBs) place(db int, seen []int) (int, error) {
	switch {
	case d.move && len(seen) > 0 && !slices.Contains(seen, db):
		all := append(slices.Clone(seen), db)
		slices.Sort(all)
		return 0, fmt.Errorf("the input holds databases %s, and --db %d moves one: say where each goes with --db-map %s",
			joinInts(all), d.to, exampleMap(all, d.to))
	case d.move:
		return d.to, nil
	case d.dbMap != nil:
		to, ok := d.dbMap[db]
		if !ok {
			return 0, fmt.Errorf("the input's database %d has no place in --db-map %s: add %d=N", db, dbMapString(d.dbMap), db)
		}
		return to, nil
	}
	return db, nil
}

// mapDB returns the loader's MapDB of an input whose databases come as it is read, or nil
// when each database stays where it is.
func (d loadDBs) mapDB() func(int) (int, error) {
	if !d.move && d.dbMap == nil {
		return nil
	}
	var seen []int
	return func(db int) (int, error) {
		to, err := d.place(db, seen)
		if err == nil && !slices.Contains(seen, db) {
			seen = append(seen, db)
		}
		return to, err
	}
}

// moveSpec moves the families of s to the databases d says, before anything is loaded,
// and tells whether any family moved.
func (d loadDBs) moveSpec(s *spec.Spec) (bool, error) {
	dbs, _ := s.DBs()
	to := map[int]int{}
	for i, db := range dbs {
		t, err := d.place(db, dbs[:i])
		if err != nil {
			return false, fmt.Errorf("--spec: %w", err)
		}
		to[db] = t
	}
	moved := false
	for _, f := range s.Families {
		moved = moved || f.DB != to[f.DB]
		f.DB = to[f.DB]
	}
	return moved, nil
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

// exampleMap suggests a --db-map for dbs: the first to to, the others to N.
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

// checkInput reads src, the input file path (not stdin), for its databases and checks that
// each has a place, so that an input of several databases moved by --db is refused before
// anything is loaded; readErr words an error of reading it. The databases of stdin are
// checked as they come.
func (d loadDBs) checkInput(ctx context.Context, src record.Source, path string, readErr func(error) error) error {
	if (!d.move && d.dbMap == nil) || path == "-" {
		return nil
	}
	var l dbLister
	if err := src.WriteTo(ctx, &l); err != nil {
		return readErr(err)
	}
	slices.Sort(l.dbs)
	for i, db := range l.dbs {
		if _, err := d.place(db, l.dbs[:i]); err != nil {
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
