package intset

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/internal/packtest"
)

func TestWidths(t *testing.T) {
	tests := []struct {
		vs    []int64
		width int
	}{
		{[]int64{0}, 2}, {[]int64{-32768, 32767}, 2}, {[]int64{-32769, 0}, 4}, {[]int64{0, 32768}, 4},
		{[]int64{-2147483648, 2147483647}, 4}, {[]int64{-2147483649}, 8}, {[]int64{2147483648}, 8},
		{[]int64{-1 << 63, 1<<63 - 1}, 8},
	}
	for _, tt := range tests {
		b := Append(nil, tt.vs)
		if w := int(binary.LittleEndian.Uint32(b)); w != tt.width || len(b) != 8+w*len(tt.vs) {
			t.Errorf("%v: width %d, %d bytes", tt.vs, w, len(b))
		}
		if w := Width(tt.vs[0], tt.vs[len(tt.vs)-1]); w != tt.width {
			t.Errorf("%v: Width %d", tt.vs, w)
		}
	}
	b := Append(nil, []int64{-2, 300})
	if want := []byte{2, 0, 0, 0, 2, 0, 0, 0, 0xfe, 0xff, 0x2c, 0x01}; !bytes.Equal(b, want) {
		t.Errorf("% x, want % x", b, want)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, vs := range [][]int64{
		{0}, {-32768, -1, 0, 1, 12, 13, 32767}, {-32769, 32768}, {-1 << 31, 1<<31 - 1},
		{-1 << 63, -1<<31 - 1, 0, 1 << 31, 1<<63 - 1},
	} {
		var it Iterator
		if err := it.Open(Append([]byte("prefix"), vs)[len("prefix"):]); err != nil {
			t.Fatal(err)
		}
		if it.Count() != len(vs) {
			t.Errorf("%v: count %d", vs, it.Count())
		}
		var got []int64
		for v, ok := it.Next(); ok; v, ok = it.Next() {
			got = append(got, v)
		}
		if it.Err() != nil || !slices.Equal(got, vs) {
			t.Errorf("read %v, %v; want %v", got, it.Err(), vs)
		}
	}
}

// raw16 returns an intset of 2-byte integers vs, whatever their order.
func raw16(vs ...int16) []byte {
	b := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 2), uint32(len(vs)))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

func TestDamage(t *testing.T) {
	for _, tt := range []struct {
		name string
		b    []byte
		open bool // Open refuses it
		msg  string
	}{
		{"short", []byte{2, 0, 0, 0, 0, 0, 0}, true, "intset"},
		{"empty", []byte{8, 0, 0, 0, 0, 0, 0, 0}, true, "intset"},
		{"width", []byte{3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}, true, "intset"},
		{"size", raw16(1, 2)[:10], true, "intset"},
		{"descending", raw16(-1, 5, 3), false, "intset: 3 after 5, not ascending"},
		{"duplicate", raw16(7, 7), false, "intset: 7 after 7, not ascending"},
	} {
		var it Iterator
		next := func() bool { _, ok := it.Next(); return ok }
		err := it.Open(tt.b)
		packtest.Damaged(t, tt.name, err, tt.open, next, it.Err, ErrCorrupt, tt.msg)
		err = cmp.Or(err, it.Err())
		if oe, ok := errors.AsType[*OrderError](err); ok != !tt.open || ok && oe.V > oe.Prev {
			t.Errorf("%s: %#v", tt.name, err)
		}
	}
}
