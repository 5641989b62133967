package encoder

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
	"github.com/rdbgen/rdbgen/rdb/internal/ziplist"
)

// TestZiplistLayout checks the header and the previous-entry sizes, including the 5-byte
// form for an entry of 254 bytes or more.
func TestZiplistLayout(t *testing.T) {
	p := packer{ziplist: true}
	b := p.begin(nil)
	b = p.add(b, []byte("1"))
	b = p.add(b, bytes.Repeat([]byte("x"), 300)) // entry of 1+2+300 = 303 bytes
	tail := len(b)
	b = p.add(b, []byte("y"))
	b = p.finish(b)
	if got := binary.LittleEndian.Uint32(b); int(got) != len(b) {
		t.Errorf("zlbytes %d, want %d", got, len(b))
	}
	if got := binary.LittleEndian.Uint32(b[4:]); int(got) != tail {
		t.Errorf("zltail %d, want %d", got, tail)
	}
	if got := binary.LittleEndian.Uint16(b[8:]); got != 3 {
		t.Errorf("zllen %d", got)
	}
	if want := []byte{0xfe, 0x2f, 1, 0, 0, 1, 'y', 0xff}; !bytes.Equal(b[tail:], want) {
		t.Errorf("last entry % x, want % x", b[tail:], want)
	}
	if b[12] != 2 { // second entry: previous entry "1" took 2 bytes
		t.Errorf("second prevlen %d, want 2", b[12])
	}
}

func TestListpackHeader(t *testing.T) {
	var p packer
	b := p.begin([]byte("prefix"))
	for i := range 70000 {
		b = p.add(b, []byte(strconv.Itoa(i%100)))
	}
	b = p.finish(b)[len("prefix"):]
	if got := binary.LittleEndian.Uint32(b); int(got) != len(b) {
		t.Errorf("total bytes %d, want %d", got, len(b))
	}
	if got := binary.LittleEndian.Uint16(b[4:]); got != 65535 {
		t.Errorf("count %d, want 65535 (unknown) past 65534 entries", got)
	}
	if b[len(b)-1] != 0xff {
		t.Error("no terminator")
	}
}

func TestScoreEncoding(t *testing.T) {
	// The Go constant -0.0 is +0; negative zero needs Copysign. Redis 7.0's ZADD k -0 m on a
	// listpack stores the integer 0 and loses the sign, but a server loads the text "-0"
	// (which Redis 6.2 writes) and keeps it: -0 is written as that text, the sign kept.
	for _, tt := range []struct {
		f     float64
		i     int64
		isInt bool
	}{{1, 1, true}, {0, 0, true}, {math.Copysign(0, -1), 0, false}, {1 << 62, 1 << 62, true}, {1<<62 + 1024, 0, false}, {0.5, 0, false}} {
		i, ok := scoreInt(tt.f)
		if ok != tt.isInt || i != tt.i {
			t.Errorf("scoreInt(%v) = %d, %v", tt.f, i, ok)
		}
	}
	if got := string(appendScoreText(nil, math.Copysign(0, -1))); got != "-0" {
		t.Errorf("score text of -0 %q", got)
	}
	if got := string(appendASCIIScore(nil, 1.5)); got != "\x031.5" && got != "\x131.5000000000000000" {
		t.Errorf("ascii score %q", got)
	}
}

// FuzzPackerRoundTrip checks that whatever s is, a listpack and a ziplist the packer builds
// keep it: read back, it is s, as a string or as the integer canonint.Parse makes of it.
func FuzzPackerRoundTrip(f *testing.F) {
	for _, s := range integerStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, zl := range []bool{false, true} {
			p := packer{ziplist: zl}
			b := p.finish(p.add(p.add(p.begin(nil), []byte(s)), []byte("end")))
			var got []string
			var err error
			if zl {
				var it ziplist.Iterator
				err = it.Open(b)
				for s, v, isInt, ok := it.Next(); ok; s, v, isInt, ok = it.Next() {
					got = append(got, entryText(s, v, isInt))
				}
				err = cmp.Or(err, it.Err())
			} else {
				var it listpack.Iterator
				err = it.Open(b)
				for s, v, isInt, ok := it.Next(); ok; s, v, isInt, ok = it.Next() {
					got = append(got, entryText(s, v, isInt))
				}
				err = cmp.Or(err, it.Err())
			}
			if err != nil || !slices.Equal(got, []string{s, "end"}) {
				t.Fatalf("ziplist %v: %q read back as %q, %v", zl, s, got, err)
			}
		}
	})
}

// entryText returns an entry as the string it stands for.
func entryText(s []byte, v int64, isInt bool) string {
	if isInt {
		return strconv.FormatInt(v, 10)
	}
	return string(s)
}

// TestPlainListNodes checks which elements get a plain quicklist node of their own: from
// RDB 12 (Redis 7.4) those over the node size limit, before that none of test size.
func TestPlainListNodes(t *testing.T) {
	big := strings.Repeat("b", 8193)
	for _, tt := range []struct {
		version int
		want    []bool // per node: plain
	}{
		{12, []bool{false, true, false}},
		{11, []bool{false, false, false}},
	} {
		rec := recordBytes(t, tt.version, Options{DisableCompression: true}, func(w *Writer) error {
			return testCollection{kind: "list", names: []string{"a", big, "c"}}.write(w, "l")
		})
		n, b := decodeLength(t, rec[3:]) // type 18, key "l"
		var got []bool
		for range n {
			var container, size uint64
			container, b = decodeLength(t, b)
			size, b = decodeLength(t, b)
			got = append(got, container == quicklistNodePlain)
			b = b[size:]
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("RDB %d: plain nodes %v, want %v", tt.version, got, tt.want)
		}
	}
}
