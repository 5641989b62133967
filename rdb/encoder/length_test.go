package encoder

import (
	"bytes"
	"testing"
)

func TestAppendLength(t *testing.T) {
	tests := []struct {
		n    uint64
		want []byte
	}{
		{0, []byte{0x00}},
		{1, []byte{0x01}},
		{63, []byte{0x3f}},
		{64, []byte{0x40, 0x40}},
		{16383, []byte{0x7f, 0xff}},
		{16384, []byte{0x80, 0x00, 0x00, 0x40, 0x00}},
		{1<<32 - 1, []byte{0x80, 0xff, 0xff, 0xff, 0xff}},
		{1 << 32, []byte{0x81, 0, 0, 0, 1, 0, 0, 0, 0}},
		{1<<64 - 1, []byte{0x81, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	}
	for _, tt := range tests {
		got := appendLength([]byte{0xaa}, tt.n)
		if !bytes.Equal(got[1:], tt.want) || got[0] != 0xaa {
			t.Errorf("appendLength(%d) = % x, want % x", tt.n, got[1:], tt.want)
		}
	}
}
