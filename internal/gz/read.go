package gz

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// ErrDamaged is wrapped by the errors of reading compressed input that is cut short,
// corrupt, or followed by data that is not gzip.
var ErrDamaged = errors.New("gzip")

// magic is the first two bytes of every gzip member.
var magic = []byte{0x1f, 0x8b}

// Starts reports whether the input br reads starts with gzip's magic bytes.
func Starts(br *bufio.Reader) bool {
	m, _ := br.Peek(len(magic))
	return bytes.Equal(m, magic)
}

// A Reader reads the members of gzip input one after another, and says what its errors
// mean for the input: cut short, corrupt, or followed by data that is not gzip.
type Reader struct {
	zr  *gzip.Reader
	br  *bufio.Reader // the compressed input
	out int64         // bytes decompressed so far
}

// NewReader returns a Reader of the compressed input br, which Starts.
func NewReader(br *bufio.Reader) (*Reader, error) {
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	zr.Multistream(false)
	return &Reader{zr: zr, br: br}, nil
}

// Read reads decompressed bytes.
func (g *Reader) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	g.out += int64(n)
	if err == io.EOF {
		// The end of a member: another member, the end of the input, or garbage.
		switch m, _ := g.br.Peek(2); {
		case len(m) == 0:
			return n, io.EOF
		case bytes.Equal(m, magic):
			if err = g.zr.Reset(g.br); err == nil {
				g.zr.Multistream(false)
				return n, nil
			}
		default:
			return n, fmt.Errorf("%w: data that is not gzip follows the compressed input (after %d bytes of data)", ErrDamaged, g.out)
		}
	}
	switch {
	case err == nil:
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("%w: the compressed input ends early, after %d bytes of data: the file is truncated", ErrDamaged, g.out)
	case errors.Is(err, gzip.ErrChecksum):
		err = fmt.Errorf("%w: the compressed input is corrupt (checksum mismatch)", ErrDamaged)
	default:
		err = fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	return n, err
}

// Close releases the decompressor; it does not close the input.
func (g *Reader) Close() error { return g.zr.Close() }
