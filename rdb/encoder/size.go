package encoder

import (
	"github.com/rdbgen/rdbgen/rdb/internal/canonint"
	"github.com/rdbgen/rdbgen/rdb/internal/intset"
	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
)

// Sizes of the compact encodings, without building them: for estimates of what a server
// holds once it has loaded a file (package memory). They are those of rdb/internal/listpack
// and rdb/internal/intset, whose tests pin them to the append functions, and of score.go.

// ListpackOverhead is the bytes of a listpack that are not entries: the 6-byte header
// (total bytes, element count) and the 0xFF terminator.
const ListpackOverhead = listpack.Overhead

// ListpackEntrySize returns the bytes s takes as one listpack entry: as an integer when it
// is the canonical form of one (see CanonicalInt), else as a string.
func ListpackEntrySize(s []byte) int { return listpack.EntrySize(s) }

// ListpackIntSize returns the bytes v takes as a listpack integer entry.
func ListpackIntSize(v int64) int { return listpack.IntSize(v) }

// ListpackScoreSize returns the bytes a sorted-set score takes as a listpack entry.
func ListpackScoreSize(f float64) int {
	if v, ok := scoreInt(f); ok {
		return listpack.IntSize(v)
	}
	var text [32]byte
	return listpack.EntrySize(appendScoreText(text[:0], f))
}

// CanonicalInt reports whether s is the canonical decimal form of an int64, which
// listpacks, intsets and Redis's integer-encoded strings store as the integer it returns.
func CanonicalInt(s []byte) (int64, bool) { return canonint.Parse(s) }

// IntsetWidth returns the bytes per member of an intset holding values from lo to hi.
func IntsetWidth(lo, hi int64) int { return intset.Width(lo, hi) }
