package rewrite

import "errors"

// Patterns are Redis's glob patterns, the ones KEYS, SCAN MATCH and PSUBSCRIBE take:
//
//	*        any run of bytes, the empty one too
//	?        any one byte
//	[abc]    one byte of the set; [a-z] a range (either way round); [^abc] one byte not in it
//	\x       the byte x itself
//
// They match bytes, not characters, case-sensitively, as KEYS does: a class left open ("[ab")
// ends with the pattern, and the empty key matches the empty pattern and "*" only (KEYS and
// SCAN take a lone "*" to mean every key; the server's matcher itself, which "**" reaches,
// matches no empty string to a star).

// maxGlobNesting bounds the stars a match may back up through, as the server does: a deeper
// pattern matches nothing.
const maxGlobNesting = 1000

// match reports whether s matches the glob pattern.
func match(pattern, s []byte) bool {
	if len(pattern) == 1 && pattern[0] == '*' {
		return true
	}
	giveUp := false
	return matchFrom(pattern, s, &giveUp, 0)
}

// matchFrom matches s against pattern. giveUp is set when a star found that the rest of the
// pattern matches no suffix of s: a star before it cannot do better with a shorter suffix.
func matchFrom(pattern, s []byte, giveUp *bool, nesting int) bool {
	if nesting > maxGlobNesting {
		return false
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
			for ; len(s) > 0; s = s[1:] {
				if matchFrom(pattern[1:], s, giveUp, nesting+1) {
					return true
				}
				if *giveUp {
					return false
				}
			}
			*giveUp = true
			return false
		case '?':
			pattern = pattern[1:]
		case '[':
			var in bool
			if pattern, in = matchClass(pattern[1:], s[0]); !in {
				return false
			}
		default:
			if pattern[0] == '\\' && len(pattern) >= 2 {
				pattern = pattern[1:]
			}
			if pattern[0] != s[0] {
				return false
			}
			pattern = pattern[1:]
		}
		s = s[1:]
		if len(s) == 0 {
			for len(pattern) > 0 && pattern[0] == '*' {
				pattern = pattern[1:]
			}
		}
	}
	return len(pattern) == 0 && len(s) == 0
}

// matchClass matches c against the class that p starts just after its "[". It returns the
// pattern after the class's closing "]" (empty for a class left open, which ends with the
// pattern) and whether c is in the class.
func matchClass(p []byte, c byte) ([]byte, bool) {
	negate := len(p) > 0 && p[0] == '^'
	if negate {
		p = p[1:]
	}
	in := false
	for {
		switch {
		case len(p) == 0:
			return p, in != negate
		case p[0] == '\\' && len(p) >= 2:
			p = p[1:]
			in = in || p[0] == c
		case p[0] == ']':
			return p[1:], in != negate
		case len(p) >= 3 && p[1] == '-':
			lo, hi := p[0], p[2]
			if lo > hi {
				lo, hi = hi, lo
			}
			in = in || lo <= c && c <= hi
			p = p[2:]
		default:
			in = in || p[0] == c
		}
		p = p[1:]
	}
}

// A glob is a parsed pattern: its text, and for a pattern of literal bytes around a single
// "*", the literal prefix and suffix, which a key rewrite keeps around its rewritten part.
type glob struct {
	text    string
	pattern []byte
	prefix  []byte
	suffix  []byte
	oneStar bool // the pattern is prefix*suffix
}

// errNotOneStar explains which patterns a key rewrite takes.
var errNotOneStar = errors.New(`a key rewrite needs a pattern with one "*" and no other wildcard ("user:*", "session:*:data")`)

func parseGlob(text string) glob {
	g := glob{text: text, pattern: []byte(text)}
	var lit []byte
	stars := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\\':
			if i+1 < len(text) {
				i++
			}
			lit = append(lit, text[i])
		case '*':
			if stars == 0 {
				g.prefix, lit = lit, nil
			}
			stars++
		case '?', '[':
			stars = 2
		default:
			lit = append(lit, c)
		}
	}
	if stars == 1 {
		g.oneStar, g.suffix = true, lit
	}
	if !g.oneStar {
		g.prefix, g.suffix = nil, nil
	}
	return g
}

// matches reports whether s matches the pattern.
func (g *glob) matches(s []byte) bool { return match(g.pattern, s) }
