package listpack

import (
	"bytes"
	"cmp"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/internal/packtest"
)

func TestAppendEntry(t *testing.T) {
	tests := []struct {
		in   string
		want []byte // the whole entry: encoding, data, backlen
	}{
		{"0", []byte{0x00, 1}},
		{"12", []byte{0x0c, 1}},
		{"13", []byte{0x0d, 1}},
		{"127", []byte{0x7f, 1}},
		{"128", []byte{0xc0, 0x80, 2}},        // 13-bit
		{"-1", []byte{0xdf, 0xff, 2}},         // 13-bit two's complement
		{"4095", []byte{0xcf, 0xff, 2}},       // largest 13-bit
		{"-4096", []byte{0xd0, 0x00, 2}},      // smallest 13-bit
		{"4096", []byte{0xf1, 0x00, 0x10, 3}}, // 16-bit
		{"-4097", []byte{0xf1, 0xff, 0xef, 3}},
		{"32767", []byte{0xf1, 0xff, 0x7f, 3}},
		{"32768", []byte{0xf2, 0x00, 0x80, 0x00, 4}}, // 24-bit
		{"-8388608", []byte{0xf2, 0x00, 0x00, 0x80, 4}},
		{"8388608", []byte{0xf3, 0x00, 0x00, 0x80, 0x00, 5}}, // 32-bit
		{"-2147483648", []byte{0xf3, 0x00, 0x00, 0x00, 0x80, 5}},
		{"2147483648", []byte{0xf4, 0, 0, 0, 0x80, 0, 0, 0, 0, 9}}, // 64-bit
		{"-9223372036854775808", []byte{0xf4, 0, 0, 0, 0, 0, 0, 0, 0x80, 9}},
		{"9223372036854775808", append([]byte{0x80 | 19}, append([]byte("9223372036854775808"), 20)...)},
		{"007", []byte{0x83, '0', '0', '7', 4}},
		{"-0", []byte{0x82, '-', '0', 3}},
		{"", []byte{0x80, 1}},
	}
	for _, tt := range tests {
		if got := AppendEntry(nil, []byte(tt.in)); !bytes.Equal(got, tt.want) {
			t.Errorf("%q: % x, want % x", tt.in, got, tt.want)
		}
	}
}

func TestStringLengths(t *testing.T) {
	tests := []struct {
		n       int
		header  []byte
		backlen []byte
	}{
		{63, []byte{0x80 | 63}, []byte{64}},
		{64, []byte{0xe0, 64}, []byte{66}},
		{125, []byte{0xe0, 125}, []byte{127}},     // entry of 127 bytes: 1-byte backlen
		{126, []byte{0xe0, 126}, []byte{1, 0x80}}, // 128: 2 bytes
		{4095, []byte{0xef, 0xff}, []byte{4097 >> 7, 4097&127 | 128}},
		{4096, []byte{0xf0, 0x00, 0x10, 0, 0}, []byte{4101 >> 7, 4101&127 | 128}},
		{16377, []byte{0xf0, 0xf9, 0x3f, 0, 0}, []byte{16382 >> 7, 16382&127 | 128}}, // last 2-byte backlen
		{16378, []byte{0xf0, 0xfa, 0x3f, 0, 0}, []byte{0, 16383>>7&127 | 128, 16383&127 | 128}},
	}
	for _, tt := range tests {
		s := strings.Repeat("a", tt.n)
		got := AppendEntry(nil, []byte(s))
		want := append(append(append([]byte{}, tt.header...), s...), tt.backlen...)
		if !bytes.Equal(got, want) {
			t.Errorf("length %d: header % x backlen % x, want % x and % x", tt.n,
				got[:len(tt.header)], got[len(tt.header)+tt.n:], tt.header, tt.backlen)
		}
	}
}

// edges are entries at every boundary of the integer and string encodings and of the
// back-length.
func edges() [][]byte {
	var es [][]byte
	for _, v := range []int64{0, 1, 12, 13, 127, 128, -1, 4095, 4096, -4096, -4097, 32767, 32768,
		-32768, -32769, 1<<23 - 1, 1 << 23, -1 << 23, -1<<23 - 1, 1<<31 - 1, 1 << 31, -1 << 31,
		-1<<31 - 1, 1<<63 - 1, -1 << 63} {
		es = append(es, []byte(strconv.FormatInt(v, 10)))
	}
	for _, n := range []int{0, 1, 63, 64, 125, 126, 4095, 4096, 16377, 16378, 2097146, 2097147} {
		es = append(es, bytes.Repeat([]byte("x"), n))
	}
	return append(es, []byte("-0"), []byte("01"), []byte("9223372036854775808"), []byte("+1"))
}

// TestRoundTrip writes every edge entry into one listpack and reads it back, as strings
// and as the integers canonical strings become.
func TestRoundTrip(t *testing.T) {
	es := edges()
	b := AppendHeader([]byte("prefix"))
	for _, e := range es {
		b = AppendEntry(b, e)
	}
	b = Finish(b, len("prefix"), len(es))[len("prefix"):]
	packtest.ReadBack(t, new(Iterator), b, es, len(es))
}

// TestSizes checks that the size functions agree with the appenders, and that Overhead is
// an empty listpack.
func TestSizes(t *testing.T) {
	for _, e := range edges() {
		if got, want := EntrySize(e), len(AppendEntry(nil, e)); got != want {
			t.Errorf("EntrySize(%.20q, len %d) = %d, want %d", e, len(e), got, want)
		}
		if v, err := strconv.ParseInt(string(e), 10, 64); err == nil {
			if got, want := IntSize(v), len(AppendInt(nil, v)); got != want {
				t.Errorf("IntSize(%d) = %d, want %d", v, got, want)
			}
		}
	}
	if got := len(Finish(AppendHeader(nil), 0, 0)); got != Overhead {
		t.Errorf("empty listpack is %d bytes, Overhead %d", got, Overhead)
	}
}

// TestUnknownCount checks that past 65534 entries the header says 65535 (unknown), and that
// the Iterator then counts them itself.
func TestUnknownCount(t *testing.T) {
	for _, n := range []int{65534, 65535, 70000} {
		es := make([][]byte, n)
		b := AppendHeader(nil)
		for i := range es {
			es[i] = []byte(strconv.Itoa(i % 100))
			b = AppendEntry(b, es[i])
		}
		packtest.ReadBack(t, new(Iterator), Finish(b, 0, n), es, map[bool]int{true: -1, false: n}[n >= maxCount])
	}
}

// TestDamage checks that damaged listpacks are errors that wrap ErrCorrupt, with the messages
// the reader passes on.
func TestDamage(t *testing.T) {
	good := Finish(AppendEntry(AppendEntry(AppendHeader(nil), []byte("f")), []byte("v")), 0, 2)
	patched := func(at int, c byte) []byte {
		b := bytes.Clone(good)
		b[at] = c
		return b
	}
	tests := []struct {
		name string
		b    []byte
		open bool   // Open refuses it
		msg  string // the error's text, when not just ErrCorrupt's
	}{
		{"short", []byte{7, 0, 0, 0, 0, 0}, true, ""},
		{"total bytes", patched(0, 99), true, ""},
		{"no terminator", patched(len(good)-1, 0), true, ""},
		{"count", patched(4, 3), false, "listpack: its header says 3 entries, it holds 2"},
		{"back-length", patched(8, 3), false, "listpack: the back-length of the entry at byte 6 is not its length 2"},
		{"string past the end", patched(6, 0x80|60), false, ""},
		{"bad encoding", patched(6, 0xf5), false, ""},
		{"early terminator", patched(6, 0xff), false, ""},
	}
	for _, tt := range tests {
		var it Iterator
		next := func() bool { _, _, _, ok := it.Next(); return ok }
		packtest.Damaged(t, tt.name, it.Open(tt.b), tt.open, next, it.Err, ErrCorrupt, cmp.Or(tt.msg, "listpack"))
	}
}
