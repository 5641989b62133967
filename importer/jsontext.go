package importer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSON text that the scanner has framed and json.Valid has checked is read in place: these
// functions walk objects and arrays and unquote strings without copying what needs no
// change.

// skipValue returns what follows the JSON value at the start of p.
func skipValue(p []byte) []byte {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"':
			for i++; i < len(p) && p[i] != '"'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return p[min(i+1, len(p)):]
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return p[i:]
			}
			depth--
			if depth == 0 {
				return p[i+1:]
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return p[i:]
			}
		}
	}
	return nil
}

// eachField calls fn with the name and the value of each field of the JSON object obj,
// which the decoder has checked.
func eachField(obj []byte, fn func(name, value []byte) error) error {
	p := skipSpace(obj)
	if len(p) == 0 || p[0] != '{' {
		return fmt.Errorf("want an object, got %s", clip(p))
	}
	p = skipSpace(p[1:])
	for len(p) > 0 && p[0] == '"' {
		name, rest, err := unquote(p)
		if err != nil {
			return err
		}
		p = skipSpace(rest)
		if len(p) == 0 || p[0] != ':' {
			return errors.New("bad object")
		}
		p = skipSpace(p[1:])
		rest = skipValue(p)
		if err := fn(name, p[:len(p)-len(rest)]); err != nil {
			return err
		}
		p = skipSpace(rest)
		if len(p) > 0 && p[0] == ',' {
			p = skipSpace(p[1:])
		}
	}
	return nil
}

// eachElement calls fn with each element of the JSON array arr, which the decoder has
// checked.
func eachElement(arr []byte, fn func(elem []byte) error) error {
	p := skipSpace(arr)
	if len(p) == 0 || p[0] != '[' {
		return fmt.Errorf("want a list, got %s", clip(p))
	}
	p = skipSpace(p[1:])
	for len(p) > 0 && p[0] != ']' {
		rest := skipValue(p)
		if err := fn(p[:len(p)-len(rest)]); err != nil {
			return err
		}
		p = skipSpace(rest)
		if len(p) > 0 && p[0] == ',' {
			p = skipSpace(p[1:])
		}
	}
	return nil
}

// str reads a JSON string value.
func str(value []byte) ([]byte, error) {
	if len(value) == 0 || value[0] != '"' {
		return nil, fmt.Errorf("want a string, got %s", clip(value))
	}
	s, _, err := unquote(value)
	return s, err
}

func skipSpace(p []byte) []byte {
	for len(p) > 0 && (p[0] == ' ' || p[0] == '\t' || p[0] == '\n' || p[0] == '\r') {
		p = p[1:]
	}
	return p
}

// unquote reads the JSON string at the start of p (already checked by the decoder's
// scanner) and returns its bytes and what follows it. Escapes are decoded, a lone low
// surrogate \udc80 to \udcff as the byte 0x80 to 0xff it stands for in rdbgen's export;
// other bytes, valid UTF-8 or not, are kept.
//
// A string without escapes is returned as a part of p, not copied: it is valid as long as p
// is. Otherwise the copy is allocated once, at the size of the escaped string.
func unquote(p []byte) (s, rest []byte, err error) {
	if len(p) == 0 || p[0] != '"' {
		return nil, p, errors.New("want a string")
	}
	end := 1
	for end < len(p) && p[end] != '"' && p[end] != '\\' {
		end++
	}
	if end < len(p) && p[end] == '"' {
		return p[1:end:end], p[end+1:], nil
	}
	for end < len(p) && p[end] != '"' {
		if p[end] == '\\' {
			end++
		}
		end++
	}
	out := make([]byte, 0, max(end-1, 0))
	for i := 1; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '"':
			return out, p[i+1:], nil
		case c != '\\':
			out = append(out, c)
			continue
		}
		i++
		if i >= len(p) {
			break
		}
		switch p[i] {
		case '"', '\\', '/':
			out = append(out, p[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n, ok := unicodeEscape(p[i-1:])
			if !ok {
				return nil, p, errors.New("bad \\u escape")
			}
			if r >= 0xdc80 && r <= 0xdcff { // a lone low surrogate: a byte that was not UTF-8
				out = append(out, byte(r-0xdc00))
			} else {
				out = utf8.AppendRune(out, r)
			}
			i += n - 2
		default:
			return nil, p, fmt.Errorf("bad escape \\%c", p[i])
		}
	}
	return nil, p, errors.New("unterminated string")
}

// unicodeEscape decodes \uXXXX, or a surrogate pair \uD83D\uDE00, at the start of p, and
// returns the rune and the bytes it took: U+FFFD for a lone surrogate, but \udc80 to
// \udcff, returned as they are.
func unicodeEscape(p []byte) (rune, int, bool) {
	hex4 := func(b []byte) (rune, bool) {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[2:6]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex4(p)
	if !ok {
		return 0, 0, false
	}
	if r >= 0xd800 && r < 0xdc00 {
		if r2, ok := hex4(p[6:]); ok && r2 >= 0xdc00 && r2 < 0xe000 {
			return (r-0xd800)<<10 + (r2 - 0xdc00) + 0x10000, 12, true
		}
		return 0xfffd, 6, true
	}
	if r >= 0xdc80 && r <= 0xdcff {
		return r, 6, true // the caller writes the byte 0x80 to 0xff it stands for
	}
	if r >= 0xdc00 && r < 0xe000 {
		return 0xfffd, 6, true
	}
	return r, 6, true
}

// clip shortens data for a message.
func clip(data []byte) string {
	s := string(data)
	if len(data) > 40 {
		s = string(data[:40]) + "…"
	}
	return lineBreaks.Replace(s)
}

// lineBreaks writes line breaks as escapes, so that a message stays on one line.
var lineBreaks = strings.NewReplacer("\n", `\n`, "\r", `\r`)
