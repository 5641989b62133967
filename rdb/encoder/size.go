package encoder

import (
	"github.com/rdbgen/rdbgen/rdb/internal/canonint"
	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
)

// Sizes of the compact encodings, without building them: for estimates of what a server
// holds once it has loaded a file (package memory). They follow the append functions of
// listpack.go, intset.go and score.go, which are the definitions; tests pin them together.

// ListpackOverhead is the bytes of a listpack that are not entries: the 6-byte header
// (total bytes, element count) and the 0xFF terminator.
const ListpackOverhead = 7

// ListpackEntrySize returns the bytes s takes as one listpack entry: as an integer when it
// is the canonical form of one (see CanonicalInt), else as a string.
func ListpackEntrySize(s []byte) int {
	if v, ok := canonint.Parse(s); ok {
		return ListpackIntSize(v)
	}
	n := len(s)
	head := 5
	switch {
	case n < 1<<6:
		head = 1
	case n < 1<<12:
		head = 2
	}
	return head + n + listpack.BacklenSize(head+n)
}

// ListpackIntSize returns the bytes v takes as a listpack integer entry.
func ListpackIntSize(v int64) int {
	switch {
	case v >= 0 && v <= 127:
		return 2
	case v >= -4096 && v <= 4095:
		return 3
	case v >= -1<<15 && v <= 1<<15-1:
		return 4
	case v >= -1<<23 && v <= 1<<23-1:
		return 5
	case v >= -1<<31 && v <= 1<<31-1:
		return 6
	default:
		return 10
	}
}

// ListpackScoreSize returns the bytes a sorted-set score takes as a listpack entry.
func ListpackScoreSize(f float64) int {
	if v, ok := scoreInt(f); ok {
		return ListpackIntSize(v)
	}
	var text [32]byte
	return ListpackEntrySize(appendScoreText(text[:0], f))
}

// CanonicalInt reports whether s is the canonical decimal form of an int64, which
// listpacks, intsets and Redis's integer-encoded strings store as the integer it returns.
func CanonicalInt(s []byte) (int64, bool) { return canonint.Parse(s) }

// IntsetWidth returns the bytes per member of an intset holding values from lo to hi.
func IntsetWidth(lo, hi int64) int { return intsetWidth(lo, hi) }
