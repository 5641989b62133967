// Package canonint recognises the strings Redis's compact encodings (listpacks, ziplists,
// intsets) and its integer-encoded strings store as integers: the canonical decimal form of
// an int64 (string2ll, lpStringToInt64).
package canonint

// Parse reports whether s is the canonical decimal form of an int64, and returns it: an
// optional '-', then digits with no leading zero, and not "-0".
func Parse(s []byte) (int64, bool) {
	if len(s) == 0 || len(s) > 20 {
		return 0, false
	}
	if len(s) == 1 && s[0] == '0' {
		return 0, true
	}
	d := s
	neg := s[0] == '-'
	if neg {
		d = s[1:]
	}
	if len(d) == 0 || d[0] < '1' || d[0] > '9' {
		return 0, false
	}
	var v uint64
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > (1<<64-1)/10 {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
		if v < uint64(c-'0') {
			return 0, false
		}
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return int64(-v), true
	}
	if v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}
