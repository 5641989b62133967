package decoder

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestHashLogRepeated logs random hashes, some of them added again, through logs whose
// partitions spill to the file or not and are checked in one table or in rounds, and
// compares what repeated finds with a map: every hash added twice is found, and, the hashes
// distinct in their 64 bits otherwise, no other.
func TestHashLogRepeated(t *testing.T) {
	cases := []struct {
		name         string
		n, repeats   int
		chunk, table int
	}{
		{"none", 0, 0, 2048, 1 << 16},
		{"one", 1, 0, 2048, 1 << 16},
		{"one repeated", 1, 1, 2048, 1 << 16},
		{"in memory", 3000, 40, 2048, 1 << 16},
		{"spilled, one table a partition", 200_000, 300, 64, 1 << 16},
		{"spilled, a partition at the table's size", 8 * 256, 8, 4, 8},
		{"spilled, in rounds", 200_000, 300, 64, 256},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer SetLogSizes(tc.chunk, tc.table)()
			r := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.repeats)))
			seen := map[uint64]bool{}
			var hs []uint64
			for len(hs) < tc.n {
				if h := r.Uint64() | 1; !seen[h] {
					seen[h] = true
					hs = append(hs, h)
				}
			}
			want := map[uint64]struct{}{}
			for i := range tc.repeats {
				h := hs[(i*7919)%len(hs)]
				want[h] = struct{}{}
				hs = append(hs, h)
			}
			r.Shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
			l := newHashLog("keys", nil)
			defer l.close()
			for _, h := range hs {
				l.add(h)
			}
			got, err := l.repeated(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if tc.n >= logParts*tc.chunk && l.f == nil {
				t.Fatal("no partition spilled to the file")
			}
			missed, extra := 0, 0
			for h := range want {
				if _, ok := got[h]; !ok {
					missed++
				}
			}
			for h := range got {
				if _, ok := want[h]; !ok {
					extra++
				}
			}
			if missed > 0 || extra > 0 {
				t.Fatalf("%d hashes repeated: %d found, %d missed, %d found that did not repeat", len(want), len(got), missed, extra)
			}
		})
	}
}
