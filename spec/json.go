package spec

import (
	"unicode/utf8"

	"github.com/rdbgen/rdbgen/internal/draw"
)

// jsonGen renders a JSON document whose leaves may be generators: numeric generators become
// numbers and the others strings. Each leaf draws from its own stream.
type jsonGen struct{ root jsonNode }

// A jsonNode is an object, an array, a literal (raw JSON) or a generator.
type jsonNode struct {
	keys  []string   // object keys, in order
	elems []jsonNode // object values or array elements
	array bool
	raw   []byte    // a literal, as JSON
	gen   generator // a generated leaf
}

func (g *jsonGen) appendTo(dst []byte, c *evalCtx) []byte {
	leaf := uint64(0)
	base := c.rnd.state
	return g.root.appendTo(dst, c, base, &leaf)
}
func (g *jsonGen) numeric() bool { return false }
func (g *jsonGen) unique() bool  { return false }

func (n *jsonNode) appendTo(dst []byte, c *evalCtx, base uint64, leaf *uint64) []byte {
	switch {
	case n.raw != nil:
		return append(dst, n.raw...)
	case n.gen != nil:
		c.rnd.state = draw.Mix(base, *leaf)
		*leaf++
		if n.gen.numeric() {
			return n.gen.appendTo(dst, c)
		}
		start := len(dst)
		dst = n.gen.appendTo(dst, c)
		// Quote in place: render, then re-append escaped.
		v := string(dst[start:])
		return appendJSONString(dst[:start], v)
	case n.array:
		dst = append(dst, '[')
		for k := range n.elems {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = n.elems[k].appendTo(dst, c, base, leaf)
		}
		return append(dst, ']')
	}
	dst = append(dst, '{')
	for k := range n.elems {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, n.keys[k])
		dst = append(dst, ':')
		dst = n.elems[k].appendTo(dst, c, base, leaf)
	}
	return append(dst, '}')
}

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\ufffd"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
