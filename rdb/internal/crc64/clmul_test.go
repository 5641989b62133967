package crc64

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func randomBytes(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(rng.Uint32())
	}
	return p
}

// TestFoldMatchesTables checks the folding checksum against the tables at every length up to
// a few hundred bytes (the four-block loop starts at 64, each later block at 16), at longer
// ones around the loop's boundaries, and from several starting values.
func TestFoldMatchesTables(t *testing.T) {
	if !useCLMUL {
		t.Log("no carry-less multiplication here (or built with purego): the tables are compared with themselves")
	}
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1023, 1024, 1025, 4095, 4096, 4097, 1<<20-1, 1<<20, 1<<20+16+15)
	p := randomBytes(1, 1<<20+64)
	for _, n := range lengths {
		for _, crc := range []uint64{0, 1, 0xe9c6d914c4b8d9ca, ^uint64(0)} {
			if got, want := Update(crc, p[:n]), updateTable(crc, p[:n]); got != want {
				t.Fatalf("len %d from %#x: folded %#x, tables %#x", n, crc, got, want)
			}
		}
	}
}

// FuzzChecksum checks the folding checksum against the tables on any bytes, from any start.
func FuzzChecksum(f *testing.F) {
	f.Add([]byte("123456789"), uint64(0))
	f.Add(randomBytes(2, 200), uint64(12345))
	f.Fuzz(func(t *testing.T, p []byte, crc uint64) {
		if got, want := Update(crc, p), updateTable(crc, p); got != want {
			t.Fatalf("len %d from %#x: folded %#x, tables %#x", len(p), crc, got, want)
		}
	})
}

// BenchmarkChecksum compares the checksum's two ways over 1 MiB, the writer's buffer:
// go test -run '^$' -bench Checksum ./internal/crc64.
func BenchmarkChecksum(b *testing.B) {
	p := randomBytes(3, 1<<20)
	ways := []struct {
		name string
		sum  func(uint64, []byte) uint64
	}{{"tables", updateTable}, {"fold", Update}}
	for _, w := range ways {
		b.Run(fmt.Sprintf("%s/clmul=%v", w.name, useCLMUL), func(b *testing.B) {
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				w.sum(0, p)
			}
		})
	}
}
