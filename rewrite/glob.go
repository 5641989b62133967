package rewrite

import (
	"errors"

	redisglob "github.com/rdbgen/rdbgen/internal/glob"
)

// Patterns are Redis's glob patterns, the ones KEYS, SCAN MATCH and PSUBSCRIBE take, matched
// by redisglob.Match:
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

// matches reports whether s matches the pattern, under the rules of redisglob.Match.
func (g *glob) matches(s []byte) bool { return redisglob.Match(g.pattern, s) }
