package export

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// safe marks the ASCII bytes a JSON string holds as they are.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string: valid UTF-8 as it is (but '"', '\\' and the
// control characters, escaped as encoding/json escapes them), and each byte that is not
// part of valid UTF-8 as the lone low surrogate \udc80 to \udcff that stands for it (see
// the package doc). The output is valid UTF-8 and valid JSON whatever s holds.
func appendString[S []byte | string](b []byte, s S) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune([]byte(s[i:]))
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', 'd', 'c', hexDigits[c>>4], hexDigits[c&0xf])
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendScore appends a sorted-set score as encoding/json writes a float64 (the shortest
// text that reads back as the same number, -0 included), and the infinities, which JSON
// numbers cannot hold, as the strings "inf" and "-inf" (Redis's spelling).
func appendScore(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(b, `"inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-inf"`...)
	}
	// encoding/json's floatEncoder: 'f' unless the exponent is small or large, then 'e'
	// with a two-digit exponent at least.
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// maxTimeMS is the first Unix ms of the year 10000, which RFC 3339 cannot write.
const maxTimeMS = 253402300800000

// appendTime appends an absolute Unix ms time as hdt3213's converter writes an expiration,
// a JSON string in RFC 3339 with as many decimals as it needs ("2100-01-01T00:00:00.123Z",
// in UTC); a time from the year 10000 on, which RFC 3339 cannot write, as a JSON number of
// Unix ms.
func appendTime(b []byte, ms int64) []byte {
	if ms >= maxTimeMS {
		return strconv.AppendInt(b, ms, 10)
	}
	b = append(b, '"')
	b = time.UnixMilli(ms).UTC().AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}
