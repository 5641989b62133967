package cluster

import (
	"fmt"
	"strconv"
	"strings"
)

// ttyTokens flattens what redis-cli prints to a terminal into the reply's scalar values, in
// order. Each value is on a line after its position ("1) ", "2# " for RESP3 maps, "3~ " for
// sets), maybe several positions when arrays nest, and RESP3 map keys are followed by " => "
// and the value. Strings are quoted as redis-cli quotes them, integers are "(integer) N".
func ttyTokens(text string) ([]token, error) {
	var toks []token
	n := 0
	for line := range strings.Lines(text) {
		n++
		s := strings.TrimRight(line, "\r\n")
		for {
			s = strings.TrimLeft(s, " \t")
			if s == "" {
				break
			}
			if k := indexPrefixLen(s); k > 0 {
				s = s[k:]
				continue
			}
			if rest, ok := strings.CutPrefix(s, "=>"); ok {
				s = rest
				continue
			}
			var v string
			var err error
			switch {
			case s[0] == '"':
				v, s, err = unquoteRepr(s)
				if err != nil {
					return nil, fmt.Errorf("%w: line %d: %v", ErrLayout, n, err)
				}
			case strings.HasPrefix(s, "(integer) "), strings.HasPrefix(s, "(double) "):
				_, s, _ = strings.Cut(s, " ")
				v, s, _ = strings.Cut(s, " ")
			case strings.HasPrefix(s, "(nil)"):
				s = s[len("(nil)"):]
			case strings.HasPrefix(s, "(empty "): // (empty array), (empty hash), (empty set)
				_, s, _ = strings.Cut(s, ")")
				continue
			case strings.HasPrefix(s, "(error) "):
				return nil, fmt.Errorf("%w: line %d: the reply is an error: %.80s", ErrLayout, n, s[len("(error) "):])
			default: // a status reply, printed as it is
				v, s = strings.TrimSpace(s), ""
			}
			toks = append(toks, token{v, n})
		}
	}
	return toks, nil
}

// indexPrefixLen returns the length of the position redis-cli prints before a value in a
// terminal, such as "12) " or "1# ", or 0 when s does not start with one.
func indexPrefixLen(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == 0 || i+1 >= len(s) || !strings.ContainsRune(")#~", rune(s[i])) || s[i+1] != ' ' {
		return 0
	}
	return i + 2
}

// unquoteRepr reads a string quoted as redis-cli quotes it (sdscatrepr: \\, \", \n, \r, \t,
// \a, \b and \xHH escapes) at the start of s, and returns it and what follows.
func unquoteRepr(s string) (v, rest string, err error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], nil
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			break
		}
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'x':
			if i+2 >= len(s) {
				return "", "", fmt.Errorf("bad escape in %.50s", s)
			}
			h, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", "", fmt.Errorf("bad escape in %.50s", s)
			}
			b.WriteByte(byte(h))
			i += 2
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", fmt.Errorf("unterminated string %.50s", s)
}
