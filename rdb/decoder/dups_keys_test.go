package decoder

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// TestKeyLog: keys added across sources, some more than once (in one db, not across dbs),
// through a log that spills to a file in $TMPDIR or not: every key added twice is a
// candidate and, hashes distinct, no other; with every hash made equal, all keys are
// candidates (the caller compares them). Close leaves no file in $TMPDIR.
func TestKeyLog(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		chunk  int
		mask   uint64
		spills bool // a partition's buffer fills: the file is made
	}{
		{"in memory", 3000, 2048, ^uint64(0), false},
		{"spilled", 100_000, 64, ^uint64(0), true},
		{"one hash, one partition", 3000, 2048, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			defer SetLogSizes(tc.chunk, 1<<16)()
			mask := keyMask
			keyMask = tc.mask
			defer func() { keyMask = mask }()
			l := NewKeyLog()
			defer l.Close()
			key := func(i int) []byte { return fmt.Appendf(nil, "key:%d", i) }
			for i := range tc.n {
				l.Add(0, key(i))
				if i%7 == 0 {
					l.Add(0, key(i))
				}
				if i%11 == 0 {
					l.Add(1, key(i)) // once in db 1: no repeat
				}
			}
			c, err := l.Repeats(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			spilled := files(t, tmp) > 0
			for i := range tc.n {
				want := i%7 == 0 || tc.mask == 0
				if got := c.Has(0, key(i)); got != want {
					t.Fatalf("key %d in db 0: candidate %v, want %v", i, got, want)
				}
				if got := c.Has(1, key(i)); got != (tc.mask == 0) {
					t.Fatalf("key %d in db 1: candidate %v", i, got)
				}
			}
			if spilled != tc.spills {
				t.Errorf("spilled to a file: %v", spilled)
			}
			l.Close()
			if n := files(t, tmp); n != 0 {
				t.Errorf("%d files left in $TMPDIR", n)
			}
		})
	}
}

// files returns the number of files in dir.
func files(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}
