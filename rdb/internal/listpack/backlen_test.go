package listpack

import (
	"bytes"
	"testing"
)

func TestBacklen(t *testing.T) {
	tests := []struct {
		l    uint64
		want []byte
	}{
		{0, []byte{0}}, {127, []byte{127}}, {128, []byte{1, 0x80}}, {16382, []byte{127, 0xfe}},
		{16383, []byte{0, 0xff, 0xff}}, {2097150, []byte{127, 0xff, 0xfe}},
		{2097151, []byte{0, 0xff, 0xff, 0xff}}, {268435455, []byte{0, 0xff, 0xff, 0xff, 0xff}},
	}
	for _, tt := range tests {
		if got := AppendBacklen(nil, tt.l); !bytes.Equal(got, tt.want) {
			t.Errorf("%d: % x, want % x", tt.l, got, tt.want)
		}
	}
}

// TestBacklenAgree checks at every boundary of the back-length, and around it, that
// BacklenSize is the length AppendBacklen writes and BacklenIs accepts what it writes, for
// that length only.
func TestBacklenAgree(t *testing.T) {
	for _, edge := range []int{0, 127, 16383, 2097151, 268435455, 1 << 32} {
		for l := max(edge-2, 0); l <= edge+2; l++ {
			bl := AppendBacklen(nil, uint64(l))
			if got := BacklenSize(l); got != len(bl) {
				t.Errorf("%d: BacklenSize %d, AppendBacklen wrote %d bytes", l, got, len(bl))
			}
			if !BacklenIs(bl, l) {
				t.Errorf("%d: BacklenIs refuses % x", l, bl)
			}
			if BacklenIs(bl, l+1) || l > 0 && BacklenIs(bl, l-1) {
				t.Errorf("%d: BacklenIs accepts % x for another length", l, bl)
			}
		}
	}
}
