package decoder

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// after agrees with bytes.Compare on keys of every length to 20 bytes that share long
// prefixes and differ in any byte, equal ones included.
func TestAfter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	base := []byte("key100000001:abcdefgh")
	for range 200000 {
		a := append([]byte{}, base[:r.IntN(len(base))]...)
		b := append([]byte{}, a...)
		if r.IntN(4) == 0 {
			b = append([]byte{}, base[:r.IntN(len(base))]...)
		}
		for _, k := range [][]byte{a, b} {
			if len(k) > 0 && r.IntN(2) == 0 {
				k[r.IntN(len(k))] = byte(r.IntN(256))
			}
		}
		if got, want := after(a, b), bytes.Compare(a, b) > 0; got != want {
			t.Fatalf("after(%q, %q) = %v, want %v", a, b, got, want)
		}
	}
}
