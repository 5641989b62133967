package encoder

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseInt32(t *testing.T) {
	tests := []struct {
		s    string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"-1", -1, true},
		{"127", 127, true},
		{"128", 128, true},
		{"-128", -128, true},
		{"-129", -129, true},
		{"32767", 32767, true},
		{"-32768", -32768, true},
		{"32768", 32768, true},
		{"2147483647", 2147483647, true},
		{"-2147483648", -2147483648, true},
		{"2147483648", 0, false},
		{"-2147483649", 0, false},
		{"99999999999", 0, false},
		{"007", 0, false},
		{"+1", 0, false},
		{"-0", 0, false},
		{"1 ", 0, false},
		{" 1", 0, false},
		{"", 0, false},
		{"-", 0, false},
		{"1e3", 0, false},
		{"0x10", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseInt32([]byte(tt.s))
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseInt32(%q) = %d, %v; want %d, %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

func newTestWriter(t testing.TB, opts Options) *Writer {
	t.Helper()
	w, err := NewWriter(io.Discard, opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestAppendString(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := []struct {
		s    string
		want []byte
	}{
		{"", []byte{0x00}},
		{"0", []byte{encInt8, 0}},
		{"-1", []byte{encInt8, 0xff}},
		{"127", []byte{encInt8, 0x7f}},
		{"128", []byte{encInt16, 0x80, 0x00}},
		{"-32768", []byte{encInt16, 0x00, 0x80}},
		{"32768", []byte{encInt32, 0x00, 0x80, 0x00, 0x00}},
		{"2147483647", []byte{encInt32, 0xff, 0xff, 0xff, 0x7f}},
		{"2147483648", append([]byte{10}, "2147483648"...)},
		{"007", append([]byte{3}, "007"...)},
		{"+1", append([]byte{2}, "+1"...)},
		{"-0", append([]byte{2}, "-0"...)},
		{"1 ", append([]byte{2}, "1 "...)},
		{"key100000001", append([]byte{12}, "key100000001"...)},
		// 20 bytes is never compressed, however repetitive.
		{strings.Repeat("a", 20), append([]byte{20}, strings.Repeat("a", 20)...)},
		// 64 'a's: a literal and a 63-byte back reference at distance 1.
		{long, []byte{encLZF, 5, 0x40, 64, 0x00, 'a', 0xe0, 63 - 2 - 7, 0x00}},
	}
	w := newTestWriter(t, Options{})
	for _, tt := range tests {
		got := w.appendString(nil, []byte(tt.s))
		if !bytes.Equal(got, tt.want) {
			t.Errorf("appendString(%.30q) = % x, want % x", tt.s, got, tt.want)
		}
	}
	// Without compression the long string is raw.
	w = newTestWriter(t, Options{DisableCompression: true})
	if got := w.appendString(nil, []byte(long)); !bytes.Equal(got, append([]byte{0x40, 64}, long...)) {
		t.Errorf("uncompressed: % x", got)
	}
}

func TestLZFOnlyWhenItSavesFourBytes(t *testing.T) {
	w := newTestWriter(t, Options{})
	rng := rand.New(rand.NewPCG(3, 4))
	for n := minCompressLen; n < 200; n++ {
		s := make([]byte, n)
		for i := range s {
			s[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
		}
		got := w.appendString(nil, s)
		if got[0] != encLZF {
			continue
		}
		clen, rest := decodeLength(t, got[1:])
		size, rest := decodeLength(t, rest)
		if int(size) != n || int(clen) != len(rest) {
			t.Fatalf("n=%d: header says %d compressed, %d original; have %d bytes", n, clen, size, len(rest))
		}
		if int(clen) > n-4 {
			t.Fatalf("n=%d: compressed to %d bytes, saves under 4", n, clen)
		}
	}
}

func decodeLength(t *testing.T, b []byte) (uint64, []byte) {
	t.Helper()
	switch b[0] >> 6 {
	case 0:
		return uint64(b[0] & 0x3f), b[1:]
	case 1:
		return uint64(b[0]&0x3f)<<8 | uint64(b[1]), b[2:]
	}
	if b[0] == len32Bit {
		return uint64(b[1])<<24 | uint64(b[2])<<16 | uint64(b[3])<<8 | uint64(b[4]), b[5:]
	}
	t.Fatalf("unexpected length byte %#x", b[0])
	return 0, nil
}

func lzfRoundTrip(t *testing.T, c *lzfCompressor, in []byte) {
	t.Helper()
	out, ok := c.compress(nil, in, len(in)+len(in)/16+64)
	if !ok {
		if len(in) < 4 {
			return
		}
		t.Fatalf("compress(%d bytes) did not fit a generous limit", len(in))
	}
	back, err := DecompressLZF(nil, out, len(in))
	if err != nil {
		t.Fatalf("decompress %d bytes: %v", len(in), err)
	}
	if !bytes.Equal(back, in) {
		t.Fatalf("round trip of %d bytes differs", len(in))
	}
}

func TestLZFRoundTrip(t *testing.T) {
	c := new(lzfCompressor)
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
	c := new(lzfCompressor)
	in := bytes.Repeat([]byte("x"), 100)
	full, ok := c.compress(nil, in, 1000)
	if !ok {
		t.Fatal("compress failed")
	}
	if _, ok := c.compress(nil, in, len(full)-1); ok {
		t.Fatalf("compress fitted %d bytes into %d", len(full), len(full)-1)
	}
	if got, ok := c.compress([]byte("prefix"), in, len(full)); !ok || !bytes.HasPrefix(got, []byte("prefix")) {
		t.Fatalf("compress with a prefix: %v %q", ok, got)
	}
}

func FuzzLZF(f *testing.F) {
	f.Add([]byte("hello hello hello hello"))
	f.Add(bytes.Repeat([]byte{0}, 300))
	c := new(lzfCompressor)
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
		DecompressLZF(nil, in, size) // must not panic on any input
	})
}

func BenchmarkAppendString(b *testing.B) {
	cases := []struct{ name, s string }{
		{"key", "key100000001"},
		{"int", "100000001"},
		{"compressible100", strings.Repeat("session:user:", 8)[:100]},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			w := newTestWriter(b, Options{})
			buf := make([]byte, 0, 256)
			s := []byte(c.s)
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				buf = w.appendString(buf[:0], s)
			}
		})
	}
}

// TestWriteStringShortPath writes records of every key and value length from 0 to 40 (the
// short path takes 12 to 16), of letters and of digits, into a buffer with exactly enough
// room, one byte too little and none: each record is the bytes appendString gives, with or
// without compression.
func TestWriteStringShortPath(t *testing.T) {
	for _, compress := range []bool{true, false} {
		w := newTestWriter(t, Options{DisableCompression: !compress})
		must(t, w.BeginDB(0, DBInfo{}))
		for kn := 0; kn <= 40; kn++ {
			for vn := 0; vn <= 40; vn++ {
				key := []byte(strings.Repeat("k1", 20)[:kn])
				value := []byte(strings.Repeat("9876543210", 4)[:vn])
				want := w.appendString(w.appendString([]byte{typeString}, key), value)
				need := 3 + kn + vn // the type byte, two 1-byte lengths, the bytes
				for _, room := range []int{need, need - 1, 0} {
					w.buf = make([]byte, 10, 10+room)
					must(t, sinkString(w, key, value, 0))
					if got := w.buf[10:]; !bytes.Equal(got, want) {
						t.Fatalf("compress=%v key %d bytes, value %d, room %d: wrote %x, want %x", compress, kn, vn, room, got, want)
					}
				}
			}
		}
	}
}
