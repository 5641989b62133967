// Package glob matches keys against glob-style patterns under Redis's rules.
package glob

// Match reports whether s matches the glob pattern under Redis's rules (stringmatchlen, as
// KEYS and SCAN MATCH use them): * any run of bytes, ? one byte, [abc] [a-z] [^...] a class
// (ranges may be written backwards; an unterminated class ends at the pattern's end), and \
// to take the next byte literally. Bytes are compared as they are, case included. As with
// KEYS and SCAN, the pattern "*" matches every key, the empty one included, which
// stringmatchlen itself does not match.
func Match(pattern, s []byte) bool {
	if len(pattern) == 1 && pattern[0] == '*' {
		return true
	}
	var skipLonger bool
	return match(pattern, s, &skipLonger, 0)
}

// match is stringmatchlen: skipLonger is set once a star has tried every suffix of the
// string in vain, so that the stars before it stop trying longer ones; nesting bounds the
// recursion as Redis does.
func match(pattern, s []byte, skipLonger *bool, nesting int) bool {
	if nesting > 1000 {
		return false
	}
	if len(s) == 0 {
		return len(pattern) == 0 // Redis matches nothing against an empty string, not even "*"
	}
	for len(pattern) > 0 && len(s) > 0 {
		switch pattern[0] {
		case '*':
			for len(pattern) > 1 && pattern[1] == '*' {
				pattern = pattern[1:]
			}
			if len(pattern) == 1 {
				return true
			}
			for i := range s {
				if match(pattern[1:], s[i:], skipLonger, nesting+1) {
					return true
				}
				if *skipLonger {
					return false
				}
			}
			*skipLonger = true
			return false
		case '?':
			s = s[1:]
		case '[':
			var ok bool
			if pattern, ok = matchClass(pattern[1:], s[0]); !ok {
				return false
			}
			s = s[1:]
		case '\\':
			if len(pattern) >= 2 {
				pattern = pattern[1:]
			}
			fallthrough
		default:
			if pattern[0] != s[0] {
				return false
			}
			s = s[1:]
		}
		pattern = pattern[1:]
	}
	if len(s) > 0 {
		return false
	}
	for len(pattern) > 0 && pattern[0] == '*' {
		pattern = pattern[1:]
	}
	return len(pattern) == 0
}

// matchClass matches c against the class that p opens (after the '['), and returns p at the
// class's closing ']' (or its last byte, when unterminated), as stringmatchlen leaves it.
func matchClass(p []byte, c byte) ([]byte, bool) {
	not := len(p) > 0 && p[0] == '^'
	if not {
		p = p[1:]
	}
	match := false
	for {
		if len(p) == 0 {
			// Unterminated: stringmatchlen steps back onto the last byte.
			return []byte{0}, match != not
		}
		switch {
		case p[0] == '\\' && len(p) >= 2:
			p = p[1:]
			if p[0] == c {
				match = true
			}
		case p[0] == ']':
			return p, match != not
		case len(p) >= 3 && p[1] == '-':
			lo, hi := p[0], p[2]
			if lo > hi {
				lo, hi = hi, lo
			}
			p = p[2:]
			if c >= lo && c <= hi {
				match = true
			}
		default:
			if p[0] == c {
				match = true
			}
		}
		p = p[1:]
	}
}
