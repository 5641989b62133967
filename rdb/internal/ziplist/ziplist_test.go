package ziplist

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"strconv"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/internal/packtest"
)

func TestEncodings(t *testing.T) {
	tests := []struct {
		in   string
		want []byte // encoding and data
	}{
		{"0", []byte{0xf1}}, {"12", []byte{0xfd}}, {"13", []byte{0xfe, 13}}, {"-1", []byte{0xfe, 0xff}},
		{"127", []byte{0xfe, 0x7f}}, {"-128", []byte{0xfe, 0x80}}, {"128", []byte{0xc0, 0x80, 0}},
		{"-129", []byte{0xc0, 0x7f, 0xff}}, {"-32768", []byte{0xc0, 0, 0x80}},
		{"32768", []byte{0xf0, 0, 0x80, 0}}, {"8388608", []byte{0xd0, 0, 0, 0x80, 0}},
		{"2147483648", []byte{0xe0, 0, 0, 0, 0x80, 0, 0, 0, 0}},
		{"abc", []byte{3, 'a', 'b', 'c'}}, {"+1", []byte{2, '+', '1'}}, {"-0", []byte{2, '-', '0'}},
	}
	for _, tt := range tests {
		if got := AppendString(nil, []byte(tt.in)); !bytes.Equal(got, tt.want) {
			t.Errorf("%q: % x, want % x", tt.in, got, tt.want)
		}
	}
	for _, n := range []int{63, 64, 16383, 16384} {
		got := AppendString(nil, bytes.Repeat([]byte("a"), n))
		var want []byte
		switch {
		case n <= 63:
			want = []byte{byte(n)}
		case n <= 16383:
			want = []byte{0x40 | byte(n>>8), byte(n)}
		default:
			want = binary.BigEndian.AppendUint32([]byte{0x80}, uint32(n))
		}
		if !bytes.HasPrefix(got, want) || len(got) != len(want)+n {
			t.Errorf("length %d: header % x, want % x", n, got[:len(want)], want)
		}
	}
}

// build writes es as one ziplist after prefix, as the writer does, and returns the ziplist
// and the offset of its last entry.
func build(prefix []byte, es [][]byte) ([]byte, int) {
	start := len(prefix)
	b := AppendHeader(prefix)
	prev, tail := 0, HeaderLen
	for _, e := range es {
		at := len(b)
		b = AppendString(AppendPrevLen(b, prev), e)
		prev, tail = len(b)-at, at-start
	}
	return Finish(b, start, tail, len(es))[start:], tail
}

// edges are entries at every boundary of the integer and string encodings and of the
// previous-entry size.
func edges() [][]byte {
	var es [][]byte
	for _, v := range []int64{0, 1, 12, 13, -1, 127, 128, -128, -129, 32767, 32768, -32768,
		-32769, 1<<23 - 1, 1 << 23, -1 << 23, -1<<23 - 1, 1<<31 - 1, 1 << 31, -1 << 31,
		-1<<31 - 1, 1<<63 - 1, -1 << 63} {
		es = append(es, []byte(strconv.FormatInt(v, 10)))
	}
	// strings of 6, 14 and 32-bit lengths; entries of 253 and 254 bytes (1 + 2 + 250 and
	// 1 + 2 + 251), after which the next entry's previous length takes 1 byte, then 5.
	for _, n := range []int{0, 63, 64, 250, 251, 16383, 16384, 1} {
		es = append(es, bytes.Repeat([]byte("x"), n))
	}
	return append(es, []byte("-0"), []byte("01"), []byte("9223372036854775808"))
}

func TestRoundTrip(t *testing.T) {
	es := edges()
	b, tail := build([]byte("prefix"), es)
	if got := binary.LittleEndian.Uint32(b[4:]); int(got) != tail {
		t.Errorf("tail %d, want %d", got, tail)
	}
	packtest.ReadBack(t, new(Iterator), b, es, len(es))
}

// TestEmpty checks the ziplist of no entries: its tail offset is the header's end.
func TestEmpty(t *testing.T) {
	if b, _ := build(nil, nil); !bytes.Equal(b, []byte{11, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0xff}) {
		t.Errorf("empty ziplist % x", b)
	}
}

// TestUnknownCount checks that past 65534 entries the header says 65535 (unknown), and that
// the Iterator then counts them itself.
func TestUnknownCount(t *testing.T) {
	for _, n := range []int{65534, 65535, 70000} {
		es := make([][]byte, n)
		for i := range es {
			es[i] = []byte{'a' + byte(i%26)}
		}
		b, _ := build(nil, es)
		packtest.ReadBack(t, new(Iterator), b, es, map[bool]int{true: -1, false: n}[n >= maxCount])
	}
}

// TestDamage checks that damaged ziplists are errors that wrap ErrCorrupt, with the messages
// the reader passes on.
func TestDamage(t *testing.T) {
	good, _ := build(nil, [][]byte{[]byte("f"), []byte("v")}) // entries at 10 and 13
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
		{"short", []byte{10, 0, 0, 0, 0, 0, 0, 0, 0, 0xff}, true, ""},
		{"total bytes", patched(0, 99), true, ""},
		{"tail past the end", patched(4, 99), true, ""},
		{"no terminator", patched(len(good)-1, 0), true, ""},
		{"count", patched(8, 3), false, "ziplist: its header says 3 entries, it holds 2"},
		{"prevlen", patched(13, 4), false, "ziplist: the entry at byte 13 says the one before has 4 bytes, not 3"},
		{"tail", patched(4, 10), false, "ziplist: its tail offset 10 is not its last entry's, 13"},
		{"string past the end", patched(11, 60), false, ""},
		{"bad encoding", patched(11, 0xff), false, ""},
		{"32-bit length form", patched(11, 0x81), false, ""},
	}
	for _, tt := range tests {
		var it Iterator
		next := func() bool { _, _, _, ok := it.Next(); return ok }
		packtest.Damaged(t, tt.name, it.Open(tt.b), tt.open, next, it.Err, ErrCorrupt, cmp.Or(tt.msg, "ziplist"))
	}
}
