package importer

import (
	"errors"
	"io"
)

// errQuotedCRLF is the problem of a quoted CSV field that holds a CR LF line break:
// encoding/csv reads it as LF, by design, which would change the value.
var errQuotedCRLF = errors.New(`CSV: a quoted field holds a CR LF line break ("\r\n"), which CSV reading turns into "\n": refused, to keep values exact (give such values in JSON input)`)

// A crlfGuard passes CSV through and fails at the first CR LF inside a quoted field, with a
// fatal LineError naming the line where that field starts. It follows quoting as
// encoding/csv does: a field is quoted when it starts with a quote, and "" inside it is a
// quote. Only an ASCII delimiter is followed; with another, the guard passes all.
type crlfGuard struct {
	r          io.Reader
	comma      byte // 0: not followed
	line       int64
	start      int64 // line where the open quoted field starts
	fieldStart bool  // the next byte starts a field
	quoted     bool  // inside a quoted field
	quote      bool  // the last byte was a quote inside a quoted field
	cr         bool  // the last byte was a CR inside a quoted field
	err        error
}

func newCRLFGuard(r io.Reader, comma rune) *crlfGuard {
	g := &crlfGuard{r: r, line: 1, fieldStart: true}
	if comma > 0 && comma < 0x80 {
		g.comma = byte(comma)
	}
	return g
}

func (g *crlfGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	if g.comma == 0 {
		return n, err
	}
	for i, b := range p[:n] {
		if g.quoted {
			switch {
			case g.quote && b == '"': // "" inside the field
				g.quote = false
				continue
			case g.quote: // the closing quote came before b
				g.quoted, g.quote = false, false
			case g.cr && b == '\n':
				g.err = &LineError{Line: g.start, Err: errQuotedCRLF, Fatal: true}
				return i, g.err
			default:
				g.cr, g.quote = b == '\r', b == '"'
				if b == '\n' {
					g.line++
				}
				continue
			}
		}
		switch b {
		case '"':
			if g.fieldStart {
				g.quoted, g.start, g.cr = true, g.line, false
			}
			g.fieldStart = false
		case '\n':
			g.line++
			g.fieldStart = true
		case g.comma:
			g.fieldStart = true
		default:
			g.fieldStart = false
		}
	}
	return n, err
}
