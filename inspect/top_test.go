package inspect

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCompareKeys checks compareKeys against bytes.Compare on names of every length up to
// past its fast path, equal up to a random point.
func TestCompareKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	name := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(3)) + 'a'
		}
		return b
	}
	for range 20000 {
		a := name(r.IntN(80))
		b := append(bytes.Clone(a[:r.IntN(len(a)+1)]), name(r.IntN(80))...)
		if r.IntN(4) == 0 {
			b = bytes.Clone(a)
		}
		for _, p := range [][2][]byte{{a, b}, {b, a}} {
			if got, want := compareKeys(p[0], p[1]), bytes.Compare(p[0], p[1]); got != want {
				t.Fatalf("compareKeys(%q, %q) = %d, want %d", p[0], p[1], got, want)
			}
		}
	}
}
