package decoder_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// recorder is a Sink that keeps every record, whole, and the databases begun.
type recorder struct {
	record.Recorder
	dbs []int
}

func (r *recorder) BeginDB(db int, c record.Counts) error {
	r.dbs = append(r.dbs, db)
	return r.Recorder.BeginDB(db, c)
}

// readAll reads an RDB file into records.
func readAll(t testing.TB, path string) ([]record.Record, *decoder.Reader) {
	t.Helper()
	var rec recorder
	rd, err := decoder.File{Path: path}.Read(context.Background(), &rec)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Records, rd
}

// canon renders a record in a canonical form: members of sets and hashes sorted, sorted
// sets by member, lists and streams in order.
func canon(r *record.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "db%d %q %s exp=%d", r.DB, r.Key, r.Type, r.ExpireAtMS)
	switch r.Type {
	case record.String:
		fmt.Fprintf(&b, " %q", r.Value)
	case record.List:
		for _, m := range r.Members {
			fmt.Fprintf(&b, " %q", m.Name)
		}
	case record.Stream:
		for _, e := range r.Members {
			fmt.Fprintf(&b, " %s%q", e.ID, e.Fields)
		}
		for _, g := range r.Stream.Groups {
			fmt.Fprintf(&b, " group %q last=%s pel=", g.Name, g.LastID)
			for _, p := range g.Pending {
				fmt.Fprintf(&b, "%s/%d,", p.ID, p.DeliveryCount)
			}
			for _, c := range g.Consumers {
				fmt.Fprintf(&b, " consumer %q %v", c.Name, c.Pending)
			}
		}
	default:
		var ms []string
		for _, m := range r.Members {
			s := fmt.Sprintf("%q", m.Name)
			switch r.Type {
			case record.Hash:
				s += fmt.Sprintf("=%q", m.Value)
				if m.ExpireAtMS != 0 {
					s += fmt.Sprintf("@%d", m.ExpireAtMS)
				}
			case record.ZSet:
				s += ":" + strconv.FormatFloat(m.Score, 'g', -1, 64)
			}
			ms = append(ms, s)
		}
		slices.Sort(ms)
		b.WriteString(" " + strings.Join(ms, " "))
	}
	return b.String()
}

func canonAll(recs []record.Record) []string {
	out := make([]string, len(recs))
	for i := range recs {
		out[i] = canon(&recs[i])
	}
	slices.Sort(out)
	return out
}

// diff reports the first differences of two sorted lists.
func diff(t testing.TB, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	shown := 0
	for _, g := range got {
		if !slices.Contains(want, g) && shown < 5 {
			t.Errorf("read, not expected: %.400s", g)
			shown++
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) && shown < 10 {
			t.Errorf("expected, not read: %.400s", w)
			shown++
		}
	}
	t.Fatalf("%d records read, %d expected", len(got), len(want))
}

func sortStrings(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
