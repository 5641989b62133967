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
