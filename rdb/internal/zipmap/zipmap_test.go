package zipmap

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/internal/packtest"
)

// build writes a zipmap of fields and values kv as Redis 2.x did, with free bytes after
// each value; count is its header.
func build(count byte, free int, kv ...string) []byte {
	b := []byte{count}
	for i, s := range kv {
		if len(s) < 254 {
			b = append(b, byte(len(s)))
		} else {
			b = binary.LittleEndian.AppendUint32(append(b, 254), uint32(len(s)))
		}
		if i%2 == 1 {
			b = append(b, byte(free))
		}
		b = append(b, s...)
		if i%2 == 1 {
			b = append(b, make([]byte, free)...)
		}
	}
	return append(b, 0xff)
}

func TestRead(t *testing.T) {
	long := strings.Repeat("l", 254)
	for _, tt := range []struct {
		b  []byte
		kv []string
	}{
		{build(1, 0, "f", "v"), []string{"f", "v"}},
		{build(2, 3, "a", "", long, "253"+strings.Repeat("x", 250)), []string{"a", "", long, "253" + strings.Repeat("x", 250)}},
		{build(254, 1, "f", "v"), []string{"f", "v"}}, // count unknown
	} {
		var it Iterator
		if err := it.Open(tt.b); err != nil {
			t.Fatal(err)
		}
		var got []string
		for s, ok := it.Next(); ok; s, ok = it.Next() {
			got = append(got, string(s))
		}
		if it.Err() != nil || len(got) != len(tt.kv) {
			t.Fatalf("read %d entries, %v; want %d", len(got), it.Err(), len(tt.kv))
		}
		for i := range got {
			if got[i] != tt.kv[i] {
				t.Errorf("entry %d: %.20q, want %.20q", i, got[i], tt.kv[i])
			}
		}
	}
}

func TestDamage(t *testing.T) {
	for _, tt := range []struct {
		name string
		b    []byte
		open bool // Open refuses it
		msg  string
	}{
		{"short", []byte{0xff}, true, "zipmap"},
		{"no terminator", build(1, 0, "f", "v")[:5], true, "zipmap"},
		{"empty", build(0, 0), false, "zipmap"},
		{"field without value", build(1, 0, "f"), false, "zipmap"},
		{"count", build(2, 0, "f", "v"), false, "zipmap: its header says 2 fields, it holds 1"},
		{"free past the end", []byte{1, 1, 'f', 1, 9, 'v', 0xff}, false, "zipmap"},
		{"length past the end", append([]byte{1, 200}, 0xff), false, "zipmap"},
		{"count 255", append([]byte{255, 1, 'f', 1, 0, 'v'}, 0xff), true, "zipmap: its header's field count is 255 (a count under 254, or 254)"}, // hdt3213/rdb's zipmap_big_len.rdb
		{"length 255", append([]byte{1, 1, 'f', 255, 0, 'v'}, 0xff), false, "zipmap"},
	} {
		var it Iterator
		next := func() bool { _, ok := it.Next(); return ok }
		packtest.Damaged(t, tt.name, it.Open(tt.b), tt.open, next, it.Err, ErrCorrupt, tt.msg)
	}
	if !bytes.Equal(build(1, 0, "f", "v"), []byte{1, 1, 'f', 1, 0, 'v', 0xff}) {
		t.Error("build")
	}
}
