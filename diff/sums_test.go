package diff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// keys is a record.Source of string keys, db by db (ascending), in a given order.
type keys struct {
	dbs  map[int]map[string]string
	ttls map[string]int64
	rev  bool // write the keys of each db in reverse order
}

func (k keys) WriteTo(_ context.Context, s record.Sink) error {
	var dbs []int
	for db := range k.dbs {
		dbs = append(dbs, db)
	}
	slices.Sort(dbs)
	for _, db := range dbs {
		if err := s.BeginDB(db, record.Counts{}); err != nil {
			return err
		}
		var names []string
		for n := range k.dbs[db] {
			names = append(names, n)
		}
		slices.Sort(names)
		if k.rev {
			slices.Reverse(names)
		}
		for _, n := range names {
			h := record.Header{Key: []byte(n), Type: record.String, Value: []byte(k.dbs[db][n]), ExpireAtMS: k.ttls[n]}
			if err := s.Begin(&h); err != nil {
				return err
			}
		}
	}
	return nil
}

// base is n string keys in db 0 and n/10 in db 5.
func base(n int) keys {
	k := keys{dbs: map[int]map[string]string{0: {}, 5: {}}, ttls: map[string]int64{}}
	for i := range n {
		k.dbs[0][fmt.Sprint("k", i)] = fmt.Sprint("v", i)
	}
	for i := range n / 10 {
		k.dbs[5][fmt.Sprint("k", i)] = fmt.Sprint("w", i)
	}
	return k
}

// TestCompareBuckets compares generated sources with known changes, with the names kept in
// the second read or found by a third, and the entries in memory or spilled.
func TestCompareBuckets(t *testing.T) {
	const n = 20000
	for _, tc := range []struct {
		name          string
		changes       int // keys changed, removed and added in db 0, each
		names, chunk  int
		limit, wantNm int
	}{
		{"no change", 0, 1 << 16, 600, 0, 0},
		{"few changes, names kept", 5, 1 << 16, 600, 0, 15},
		{"few changes, third read", 5, 1, 600, 0, 15},
		{"all buckets, spilled", n / 4, 1 << 16, 4, 7, 7},
		{"no names", 5, 1 << 16, 600, -1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			names, chunk := keptNames, runChunk
			keptNames, runChunk = tc.names, tc.chunk
			t.Cleanup(func() { keptNames, runChunk = names, chunk })
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			a, b := base(n), base(n)
			b.rev = true
			for i := range tc.changes {
				b.dbs[0][fmt.Sprint("k", i)] = "changed"
				delete(b.dbs[0], fmt.Sprint("k", n-1-i))
				b.dbs[0][fmt.Sprint("new", i)] = "x"
			}
			res, err := Compare(context.Background(), a, b, Options{Limit: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			c := uint64(tc.changes)
			want := []DBCounts{{DB: 0, Same: n - 2*c, OnlyA: c, OnlyB: c, Changed: c}, {DB: 5, Same: n / 10}}
			if !slices.Equal(res.DBs, want) || res.Differences != 3*c || res.KeysA != n+n/10 || res.KeysB != res.KeysA {
				t.Errorf("counts %+v, %d differences, keys %d %d; want %+v", res.DBs, res.Differences, res.KeysA, res.KeysB, want)
			}
			if res.Same() != (c == 0) || (res.Verdict() == nil) != (c == 0) || (c != 0 && !errors.Is(res.Verdict(), ErrDifferent)) {
				t.Errorf("Same() = %v, Verdict() = %v with %d changes", res.Same(), res.Verdict(), c)
			}
			if len(res.Keys) != tc.wantNm {
				t.Fatalf("%d keys named, want %d", len(res.Keys), tc.wantNm)
			}
			for _, k := range res.Keys {
				in, ok := a.dbs[k.DB][string(k.Key)]
				out, okB := b.dbs[k.DB][string(k.Key)]
				kind := map[[2]bool]string{{true, false}: OnlyA, {false, true}: OnlyB, {true, true}: Changed}[[2]bool{ok, okB}]
				if k.Kind != kind || (kind == Changed && in == out) {
					t.Errorf("named %q as %s: in A %v (%q), in B %v (%q)", k.Key, k.Kind, ok, in, okB, out)
				}
			}
			// Every temporary file is gone (a spill, with chunks of 4 entries, made some).
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestCompareOptions: an expiry alone differs under the default options, not with
// IgnoreTTL; a value not with KeysOnly.
func TestCompareOptions(t *testing.T) {
	a, b := base(100), base(100)
	b.ttls["k50"] = 1e12 // db 0 alone has k50
	b.dbs[0]["k2"] = "other"
	for _, tc := range []struct {
		opts Options
		want uint64
	}{{Options{}, 2}, {Options{IgnoreTTL: true}, 1}, {Options{KeysOnly: true}, 0}} {
		res, err := Compare(context.Background(), a, b, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Differences != tc.want || res.DBs[0].Same != 100-tc.want {
			t.Errorf("%+v: %d differences, %+v; want %d", tc.opts, res.Differences, res.DBs, tc.want)
		}
	}
}
