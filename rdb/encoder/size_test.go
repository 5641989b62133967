package encoder

import (
	"math"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
)

// ListpackScoreSize agrees with the entry a score becomes (the other sizes are
// rdb/internal/listpack's, tested there).
func TestListpackScoreSize(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 1.5, 1e20, math.Inf(1), math.Inf(-1), 1 << 62, 1<<62 + 4096, 0.1} {
		var b []byte
		if v, ok := scoreInt(f); ok {
			b = listpack.AppendInt(nil, v)
		} else {
			b = listpack.AppendEntry(nil, appendScoreText(nil, f))
		}
		if got := ListpackScoreSize(f); got != len(b) {
			t.Errorf("ListpackScoreSize(%v) = %d, want %d", f, got, len(b))
		}
	}
	if got := len(listpack.Finish(listpack.AppendHeader(nil), 0, 0)); got != ListpackOverhead {
		t.Errorf("empty listpack is %d bytes, ListpackOverhead %d", got, ListpackOverhead)
	}
}
