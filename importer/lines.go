package importer

import (
	"bufio"
	"io"
)

// A lineCounter passes the input through and remembers where its newlines are, so that an
// offset the JSON decoder reports becomes a line number. It keeps only the newlines past the
// last offset asked about: those the decoder has read ahead.
type lineCounter struct {
	r     *bufio.Reader
	total int64   // bytes passed on so far
	nl    []int64 // offsets of newlines not yet passed by lineAt
	next  int     // first entry of nl not yet passed
	line  int64   // newlines passed
}

func newLineCounter(r io.Reader) *lineCounter {
	return &lineCounter{r: bufio.NewReaderSize(r, 64<<10)}
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			c.nl = append(c.nl, c.total+int64(i))
		}
	}
	c.total += int64(n)
	return n, err
}

// lineAt returns the 1-based line of the byte at offset off. Offsets must not decrease
// from one call to the next.
func (c *lineCounter) lineAt(off int64) int64 {
	for c.next < len(c.nl) && c.nl[c.next] < off {
		c.next++
		c.line++
	}
	if c.next > 1024 && c.next*2 > len(c.nl) {
		c.nl = append(c.nl[:0], c.nl[c.next:]...)
		c.next = 0
	}
	return c.line + 1
}

// peekNonSpace returns the first byte ahead that is not JSON white space, reading nothing.
func (c *lineCounter) peekNonSpace() (byte, error) {
	for n := 1; ; n++ {
		b, err := c.r.Peek(n)
		if len(b) < n {
			return 0, err
		}
		switch b[n-1] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return b[n-1], nil
	}
}
