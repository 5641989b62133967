package encoder

import (
	"bytes"
	"math"
	"testing"
)

// The size functions agree with the appenders they summarise.
func TestListpackSizes(t *testing.T) {
	strs := [][]byte{
		nil, []byte("0"), []byte("127"), []byte("128"), []byte("-1"), []byte("4095"), []byte("-4096"),
		[]byte("32767"), []byte("-32769"), []byte("8388607"), []byte("2147483648"), []byte("-9223372036854775808"),
		[]byte("01"), []byte("-0"), []byte("abc"), bytes.Repeat([]byte("x"), 63), bytes.Repeat([]byte("x"), 64),
		bytes.Repeat([]byte("x"), 125), bytes.Repeat([]byte("x"), 126), bytes.Repeat([]byte("x"), 4095),
		bytes.Repeat([]byte("x"), 4096), bytes.Repeat([]byte("x"), 16376), bytes.Repeat([]byte("x"), 16378),
	}
	for _, s := range strs {
		if got, want := ListpackEntrySize(s), len(appendListpackEntry(nil, s)); got != want {
			t.Errorf("ListpackEntrySize(%.20q, len %d) = %d, want %d", s, len(s), got, want)
		}
	}
	for _, f := range []float64{0, 1, -1, 1.5, 1e20, math.Inf(1), math.Inf(-1), 1 << 62, 1<<62 + 4096, 0.1} {
		var b []byte
		if v, ok := scoreInt(f); ok {
			b = appendListpackInt(nil, v)
		} else {
			b = appendListpackEntry(nil, appendScoreText(nil, f))
		}
		if got := ListpackScoreSize(f); got != len(b) {
			t.Errorf("ListpackScoreSize(%v) = %d, want %d", f, got, len(b))
		}
	}
	if got := len(finishListpack(appendListpackHeader(nil), 0, 0)); got != ListpackOverhead {
		t.Errorf("empty listpack is %d bytes, ListpackOverhead %d", got, ListpackOverhead)
	}
}
