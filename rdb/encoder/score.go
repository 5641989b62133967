package encoder

import (
	"encoding/binary"
	"math"
	"strconv"
)

// Sorted-set scores are doubles. The plain type 5 (RDB 8+) stores them as 8 bytes LE; type 3
// (RDB 7) as a length-prefixed decimal with 253, 254 and 255 meaning NaN, +inf and -inf.
// Inside a listpack or ziplist a score is an entry: an integer when it is integral and
// within ±2^62 (double2ll), else its decimal text ("inf", "-inf" for the infinities).

// appendBinaryScore appends f as a little-endian IEEE 754 double.
func appendBinaryScore(b []byte, f float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
}

// appendASCIIScore appends f the way rdbSaveDoubleValue does, for type 3 sorted sets.
func appendASCIIScore(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(b, 254)
	case math.IsInf(f, -1):
		return append(b, 255)
	}
	at := len(b)
	b = strconv.AppendFloat(append(b, 0), f, 'g', 17, 64)
	b[at] = byte(len(b) - at - 1)
	return b
}

// scoreInt reports whether Redis stores f in a listpack as the integer it returns.
func scoreInt(f float64) (int64, bool) {
	const limit = 1 << 62                                                           // (double)(LLONG_MAX/2)
	if f < -limit || f > limit || f != math.Trunc(f) || f == 0 && math.Signbit(f) { // -0: the text "-0"
		return 0, false
	}
	return int64(f), true
}

// appendScoreText appends the decimal text of a score that is not stored as an integer.
func appendScoreText(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}
