package encoder

import (
	"math/rand/v2"
	"testing"
)

func TestCombineCRC(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := make([]byte, 1<<17+13)
	for i := range p {
		p[i] = byte(rng.Uint32())
	}
	want := Checksum(p)
	for _, cut := range []int{0, 1, 7, 8, 16, 1000, len(p) / 2, len(p) - 1, len(p)} {
		a, b := p[:cut], p[cut:]
		if got := combineCRC(Checksum(a), Checksum(b), len(b)); got != want {
			t.Errorf("cut %d: combined %#x, want %#x", cut, got, want)
		}
	}
}

func BenchmarkCombineCRC(b *testing.B) {
	for b.Loop() {
		combineCRC(0x1234567890abcdef, 1, 1<<20+12345)
	}
}
