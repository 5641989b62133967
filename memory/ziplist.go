package memory

import (
	"strconv"

	"github.com/rdbgen/rdbgen/rdb/encoder"
)

// Ziplists, the small hashes and sorted sets of servers before 7.0: an entry is the
// previous entry's length (1 byte, or 5 from 254), an encoding header and the data. A
// canonical integer of up to 32 bytes is stored as one (zipTryEncoding): 0 to 12 in the
// header, else in 1, 2, 3, 4 or 8 bytes; a string has a 1-, 2- or 5-byte header.

// zipEntrySize returns the bytes s takes in a ziplist after an entry of prev bytes.
func zipEntrySize(prev int, s []byte) int {
	n := 1
	if prev >= 254 {
		n = 5
	}
	if v, ok := encoder.CanonicalInt(s); ok && len(s) <= 32 {
		switch {
		case v >= 0 && v <= 12:
			return n + 1
		case v >= -1<<7 && v < 1<<7:
			return n + 2
		case v >= -1<<15 && v < 1<<15:
			return n + 3
		case v >= -1<<23 && v < 1<<23:
			return n + 4
		case v >= -1<<31 && v < 1<<31:
			return n + 5
		}
		return n + 9
	}
	switch {
	case len(s) <= 0x3f:
		n++
	case len(s) <= 0x3fff:
		n += 2
	default:
		n += 5
	}
	return n + len(s)
}

// zipScore returns a sorted-set score as the server writes it into a ziplist (d2string):
// an integral value as an integer, else with 17 significant digits.
func zipScore(buf []byte, f float64) []byte {
	if f == float64(int64(f)) && f > -1<<52 && f < 1<<52 {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	return strconv.AppendFloat(buf, f, 'g', 17, 64)
}
