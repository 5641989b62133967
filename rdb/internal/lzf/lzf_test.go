package lzf

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func lzfRoundTrip(t *testing.T, c *Compressor, in []byte) {
	t.Helper()
	out, ok := c.Compress(nil, in, len(in)+len(in)/16+64)
	if !ok {
		if len(in) < 4 {
			return
		}
		t.Fatalf("compress(%d bytes) did not fit a generous limit", len(in))
	}
	back, err := Decompress(nil, out, len(in))
	if err != nil {
		t.Fatalf("decompress %d bytes: %v", len(in), err)
	}
	if !bytes.Equal(back, in) {
		t.Fatalf("round trip of %d bytes differs", len(in))
	}
}

func TestLZFRoundTrip(t *testing.T) {
	c := new(Compressor)
	rng := rand.New(rand.NewPCG(5, 6))
	inputs := [][]byte{
		[]byte("abcd"),
		bytes.Repeat([]byte("a"), 1000),
		bytes.Repeat([]byte("abc"), 3000),
		[]byte(strings.Repeat("the quick brown fox ", 50)),
	}
	// Long runs exercise the 264-byte match limit and offsets near 8192.
	far := make([]byte, 9000)
	for i := range far {
		far[i] = byte(rng.Uint32())
	}
	copy(far[8190:], far[:500])
	inputs = append(inputs, far)
	for range 200 {
		n := rng.IntN(5000)
		b := make([]byte, n)
		alpha := 1 + rng.IntN(255)
		for i := range b {
			b[i] = byte(rng.IntN(alpha))
		}
		inputs = append(inputs, b)
	}
	for _, in := range inputs {
		lzfRoundTrip(t, c, in)
	}
}

func TestLZFLimit(t *testing.T) {
	c := new(Compressor)
	in := bytes.Repeat([]byte("x"), 100)
	full, ok := c.Compress(nil, in, 1000)
	if !ok {
		t.Fatal("compress failed")
	}
	if _, ok := c.Compress(nil, in, len(full)-1); ok {
		t.Fatalf("compress fitted %d bytes into %d", len(full), len(full)-1)
	}
	if got, ok := c.Compress([]byte("prefix"), in, len(full)); !ok || !bytes.HasPrefix(got, []byte("prefix")) {
		t.Fatalf("compress with a prefix: %v %q", ok, got)
	}
}

func FuzzLZF(f *testing.F) {
	f.Add([]byte("hello hello hello hello"))
	f.Add(bytes.Repeat([]byte{0}, 300))
	c := new(Compressor)
	f.Fuzz(func(t *testing.T, in []byte) {
		lzfRoundTrip(t, c, in)
	})
}

func FuzzLZFDecompress(f *testing.F) {
	f.Add([]byte{0x00, 'a', 0xe0, 0x37, 0x00}, 64)
	f.Fuzz(func(t *testing.T, in []byte, size int) {
		if size < 0 || size > 1<<16 {
			return
		}
		Decompress(nil, in, size) // must not panic on any input
	})
}

// lzfInputs are the benchmarks' inputs: a short value of the sizes the writer compresses most,
// and longer text of a few distinct words, which compresses about 3 to 1.
func lzfInputs() []struct {
	name string
	in   []byte
} {
	rng := rand.New(rand.NewPCG(9, 10))
	words := strings.Fields("user session cart item price total id name email 0 1 2 3 true false null")
	text := func(n int) []byte {
		var b []byte
		for len(b) < n {
			b = append(b, words[rng.IntN(len(words))]...)
			b = append(b, ' ')
		}
		return b[:n]
	}
	return []struct {
		name string
		in   []byte
	}{
		{"100", []byte(strings.Repeat("session:user:", 8)[:100])},
		{"4K", text(4 << 10)},
		{"64K", text(64 << 10)},
	}
}

// BenchmarkLZF compresses and expands lzfInputs: go test -run '^$' -bench LZF ./internal/lzf.
func BenchmarkLZF(b *testing.B) {
	for _, tc := range lzfInputs() {
		c := new(Compressor)
		packed, ok := c.Compress(nil, tc.in, len(tc.in))
		if !ok {
			b.Fatalf("%s: does not compress", tc.name)
		}
		b.Run("compress/"+tc.name, func(b *testing.B) {
			out := make([]byte, 0, len(tc.in))
			b.SetBytes(int64(len(tc.in)))
			for b.Loop() {
				out, _ = c.Compress(out[:0], tc.in, len(tc.in))
			}
		})
		b.Run("decompress/"+tc.name, func(b *testing.B) {
			out := make([]byte, 0, len(tc.in))
			b.SetBytes(int64(len(tc.in)))
			for b.Loop() {
				out, _ = Decompress(out, packed, len(tc.in))
			}
		})
	}
}
