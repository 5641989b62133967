package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// A jsonScanner cuts JSON input into values without decoding them: it copies each value's
// bytes, once, into a buffer the caller reuses, so that a record costs its own size and not
// the several times that encoding/json's Decoder buffers and copies. It counts lines.
type jsonScanner struct {
	br       *bufio.Reader
	line     int64 // the line of the next byte
	lastLine int64 // the line of the last byte that was not white space
	err      error // a read error other than io.EOF
}

func newJSONScanner(r io.Reader) *jsonScanner {
	br := bufio.NewReaderSize(r, 64<<10)
	if bom, _ := br.Peek(len(utf8BOM)); string(bom) == utf8BOM {
		br.Discard(len(utf8BOM))
	}
	return &jsonScanner{br: br, line: 1, lastLine: 1}
}

// chunk returns the bytes buffered ahead, reading more when there are none; nil at the end
// of the input or on a read error (kept in s.err).
func (s *jsonScanner) chunk() []byte {
	if s.br.Buffered() == 0 {
		if _, err := s.br.Peek(1); err != nil {
			if err != io.EOF {
				s.err = err
			}
			return nil
		}
	}
	b, _ := s.br.Peek(s.br.Buffered())
	return b
}

// next skips white space and returns the next byte without consuming it; false at the end.
func (s *jsonScanner) next() (byte, bool) {
	for {
		b := s.chunk()
		if b == nil {
			return 0, false
		}
		for i, c := range b {
			switch c {
			case '\n':
				s.line++
			case ' ', '\t', '\r':
			default:
				s.br.Discard(i)
				return c, true
			}
		}
		s.br.Discard(len(b))
	}
}

// consume consumes the byte next returned.
func (s *jsonScanner) consume() {
	s.br.Discard(1)
	s.lastLine = s.line
}

// isScalar reports whether c can be part of a number, true, false or null.
func isScalar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

// value appends the JSON value that starts at the next byte (next returned it) to dst, and
// reports whether it was complete: false when the input ends inside it. The value is only
// framed (brackets matched outside strings); check it with json.Valid.
func (s *jsonScanner) value(dst []byte) ([]byte, bool) {
	depth := 0
	inString, escaped, scalar := false, false, false
	first := true
	for {
		b := s.chunk()
		if b == nil {
			return dst, scalar && s.err == nil // a number or literal ends with the input
		}
		end := -1 // the bytes of b that belong to the value, when it ends in b
		for i, c := range b {
			if first {
				first = false
				if c != '{' && c != '[' && c != '"' {
					scalar = true
				}
			}
			switch {
			case scalar:
				if !isScalar(c) && i+len(dst) > 0 {
					end = i
				}
			case inString:
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
					if depth == 0 {
						end = i + 1
					}
				case c == '\n':
					s.line++
				}
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				if depth--; depth <= 0 {
					end = i + 1
				}
			case c == '\n':
				s.line++
			}
			if end >= 0 {
				break
			}
		}
		if end < 0 {
			dst = append(dst, b...)
			s.br.Discard(len(b))
			continue
		}
		if end == 0 && len(dst) == 0 { // a lone delimiter: one byte, for the error
			end = 1
		}
		dst = append(dst, b[:end]...)
		s.br.Discard(end)
		s.lastLine = s.line
		return dst, true
	}
}

// syntaxError returns the problem of a value that json.Valid refused, and its line, counted
// from start, the line where the value starts.
func syntaxError(raw []byte, start int64) (int64, error) {
	var v struct{}
	err := json.Unmarshal(raw, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := min(max(se.Offset-1, 0), int64(len(raw)))
		return start + int64(bytes.Count(raw[:off], []byte{'\n'})), fmt.Errorf("JSON: %v", se)
	}
	if err == nil {
		err = errors.New("not a JSON value")
	}
	return start, fmt.Errorf("JSON: %v", err)
}
