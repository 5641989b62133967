package decoder

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/rdbgen/rdbgen/rdb/internal/crc64"
	"github.com/rdbgen/rdbgen/rdb/internal/lzf"
)

// input is the buffered, checksummed byte source under a Reader. It reads the underlying
// io.Reader in large chunks, hands out slices of its buffer, and feeds every byte it
// consumes to the CRC. A string longer than the buffer is read in chunks into a scratch
// buffer that grows only as its bytes arrive, so a damaged length never sizes an allocation.
type input struct {
	src     io.Reader
	buf     []byte
	r, w    int   // unread bytes are buf[r:w]
	crcFrom int   // buf[crcFrom:r] is consumed but not yet in the CRC
	base    int64 // file offset of buf[0]
	crc     crc64.Digest
	srcErr  error // the underlying reader's error, once met
}

func newInput(src io.Reader, size int) *input {
	return &input{src: src, buf: make([]byte, size)}
}

// offset returns the file offset of the next unread byte.
func (in *input) offset() int64 { return in.base + int64(in.r) }

// flushCRC adds the consumed bytes to the CRC.
func (in *input) flushCRC() {
	if in.crcFrom < in.r {
		in.crc.Write(in.buf[in.crcFrom:in.r])
		in.crcFrom = in.r
	}
}

// fill makes at least n (at most len(buf)) unread bytes available.
func (in *input) fill(n int) error {
	if in.w-in.r >= n {
		return nil
	}
	if in.r+n > len(in.buf) {
		in.flushCRC()
		copy(in.buf, in.buf[in.r:in.w])
		in.base += int64(in.r)
		in.w -= in.r
		in.r, in.crcFrom = 0, 0
	}
	for in.w-in.r < n {
		if in.srcErr != nil {
			return in.srcErr
		}
		k, err := in.src.Read(in.buf[in.w:])
		in.w += k
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			in.srcErr = err
		}
	}
	return nil
}

// next returns the next n bytes (n at most the buffer's size), valid until the next read.
func (in *input) next(n int) ([]byte, error) {
	if err := in.fill(n); err != nil {
		return nil, err
	}
	b := in.buf[in.r : in.r+n]
	in.r += n
	return b, nil
}

func (in *input) byte() (byte, error) {
	if in.r < in.w {
		c := in.buf[in.r]
		in.r++
		return c, nil
	}
	b, err := in.next(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// readInto appends the next n bytes to dst[:0], in chunks.
func (in *input) readInto(dst []byte, n uint64) ([]byte, error) {
	dst = dst[:0]
	if n <= uint64(len(in.buf)) {
		b, err := in.next(int(n))
		return append(dst, b...), err
	}
	if n > math.MaxInt32*16 {
		return dst, errTooLong
	}
	for n > 0 {
		k := min(n, uint64(len(in.buf)))
		b, err := in.next(int(k))
		if err != nil {
			return dst, err
		}
		dst = append(dst, b...)
		n -= k
	}
	return dst, nil
}

// skip discards n bytes.
func (in *input) skip(n uint64) error {
	for n > 0 {
		k := min(n, uint64(len(in.buf)))
		if _, err := in.next(int(k)); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

var (
	errTooLong   = fmt.Errorf("%w: length too large", ErrCorrupt)
	errBadLZF    = fmt.Errorf("%w: %w", ErrCorrupt, lzf.ErrCorrupt)
	errBadLength = fmt.Errorf("%w: bad length encoding", ErrCorrupt)
)

// length reads an RDB length. encoded reports the 11xxxxxx form of special strings, whose
// kind (0-3) is then the value.
func (in *input) length() (v uint64, encoded bool, err error) {
	c, err := in.byte()
	if err != nil {
		return 0, false, err
	}
	switch c >> 6 {
	case 0:
		return uint64(c & 0x3f), false, nil
	case 1:
		d, err := in.byte()
		return uint64(c&0x3f)<<8 | uint64(d), false, err
	case 3:
		return uint64(c & 0x3f), true, nil
	}
	switch c {
	case 0x80:
		b, err := in.next(4)
		if err != nil {
			return 0, false, err
		}
		return uint64(binary.BigEndian.Uint32(b)), false, nil
	case 0x81:
		b, err := in.next(8)
		if err != nil {
			return 0, false, err
		}
		return binary.BigEndian.Uint64(b), false, nil
	}
	return 0, false, errBadLength
}

// plainLength reads a length that may not be a special string.
func (in *input) plainLength() (uint64, error) {
	v, enc, err := in.length()
	if err == nil && enc {
		err = errBadLength
	}
	return v, err
}

// str reads an RDB string (raw, integer or LZF) into dst[:0]; packed is a scratch buffer for
// compressed bytes.
func (in *input) str(dst []byte, packed *[]byte) ([]byte, error) {
	// The common case first: a raw string of under 64 bytes (a length of one byte) whole
	// in the buffer.
	if r := in.r; r < in.w {
		if c := in.buf[r]; c < 0x40 && r+1+int(c) <= in.w {
			in.r = r + 1 + int(c)
			return append(dst[:0], in.buf[r+1:in.r]...), nil
		}
	}
	n, enc, err := in.length()
	if err != nil {
		return dst[:0], err
	}
	if !enc {
		return in.readInto(dst, n)
	}
	switch n {
	case 0, 1, 2:
		b, err := in.next(1 << n)
		if err != nil {
			return dst[:0], err
		}
		var v int64
		switch n {
		case 0:
			v = int64(int8(b[0]))
		case 1:
			v = int64(int16(binary.LittleEndian.Uint16(b)))
		default:
			v = int64(int32(binary.LittleEndian.Uint32(b)))
		}
		return strconv.AppendInt(dst[:0], v, 10), nil
	case 3:
		clen, err := in.plainLength()
		if err != nil {
			return dst[:0], err
		}
		ulen, err := in.plainLength()
		if err != nil {
			return dst[:0], err
		}
		if clen == 0 || ulen > clen*lzf.MaxRatio {
			return dst[:0], errBadLZF
		}
		var src []byte
		if clen <= uint64(in.w-in.r) { // whole in the buffer: decompressed from it
			src = in.buf[in.r : in.r+int(clen)]
			in.r += int(clen)
		} else if *packed, err = in.readInto(*packed, clen); err != nil {
			return dst[:0], err
		} else {
			src = *packed
		}
		out, err := lzf.Decompress(dst, src, int(ulen))
		if err != nil {
			err = errBadLZF
		}
		return out, err
	}
	return dst[:0], errBadLength
}

// strView is str for a string its caller only reads, and only until the next read: a raw
// string of under 16384 bytes whole in the buffer is a slice of it, no copy; another is
// read into *dst, as str reads it.
func (in *input) strView(dst, packed *[]byte) ([]byte, error) {
	if from, end, ok := shortString(in.buf[:in.w], in.r); ok {
		in.r = end
		return in.buf[from:end:end], nil
	}
	var err error
	*dst, err = in.str(*dst, packed)
	return *dst, err
}

// skipStr skips an RDB string.
func (in *input) skipStr() error {
	n, enc, err := in.length()
	if err != nil {
		return err
	}
	if !enc {
		return in.skip(n)
	}
	switch n {
	case 0, 1, 2:
		return in.skip(1 << n)
	case 3:
		clen, err := in.plainLength()
		if err != nil {
			return err
		}
		if _, err := in.plainLength(); err != nil {
			return err
		}
		return in.skip(clen)
	}
	return errBadLength
}

func (in *input) uint64LE() (uint64, error) {
	b, err := in.next(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}
