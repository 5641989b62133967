package listpack

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCorrupt is the error of a damaged listpack; the errors that wrap it say what is wrong.
// Its text is the word "listpack", for a reader to put under its own "corrupt".
var ErrCorrupt = errors.New("listpack")

// An Iterator yields the entries of one listpack, as strings or integers, bounds-checking
// every step: a damaged listpack is an error, never a panic. It applies the rules of Redis's
// deep sanitization (lpValidateIntegrity), which a server that loads a file without it does
// not check and later crashes on: the header's total bytes and count agree with the entries,
// and each entry's back-length is its length. Open starts one.
type Iterator struct {
	b     []byte
	p     int // offset of the next entry
	count int // the header's element count, -1 when unknown
	seen  int // entries read
	err   error
}

// Open validates the header of b and positions it at its first entry.
func (it *Iterator) Open(b []byte) error {
	*it = Iterator{b: b, count: -1}
	if len(b) < Overhead || int(binary.LittleEndian.Uint32(b)) != len(b) || b[len(b)-1] != end {
		it.err = ErrCorrupt
		return ErrCorrupt
	}
	if n := binary.LittleEndian.Uint16(b[4:]); n != maxCount {
		it.count = int(n)
	}
	it.p = headerLen
	return nil
}

// Count returns the element count of the header, -1 when it does not say (65535 or more).
func (it *Iterator) Count() int { return it.count }

// Err returns the error that ended the iteration, nil at the end of a sound listpack.
func (it *Iterator) Err() error { return it.err }

// Next returns the next entry: a string s (a slice of the listpack), or an integer v when
// isInt. ok is false at the end of the listpack or on an error (see Err). At the end it checks
// that the header's count is the number of entries read.
func (it *Iterator) Next() (s []byte, v int64, isInt, ok bool) {
	if it.err != nil {
		return nil, 0, false, false
	}
	b := it.b
	p := it.p
	if p >= len(b) {
		return it.fail(ErrCorrupt)
	}
	c := b[p]
	var size int // encoding and data
	switch {
	case c == end:
		if p != len(b)-1 {
			return it.fail(ErrCorrupt)
		}
		if it.count >= 0 && it.seen != it.count {
			return it.fail(fmt.Errorf("%w: its header says %d entries, it holds %d", ErrCorrupt, it.count, it.seen))
		}
		return nil, 0, false, false
	case c < 0x80: // 7-bit unsigned integer
		v, isInt, size = int64(c), true, 1
	case c < 0xc0: // string of up to 63 bytes
		n := int(c & 0x3f)
		if p+1+n > len(b) {
			return it.fail(ErrCorrupt)
		}
		s, size = b[p+1:p+1+n], 1+n
	case c < 0xe0: // 13-bit integer
		if p+2 > len(b) {
			return it.fail(ErrCorrupt)
		}
		u := uint64(c&0x1f)<<8 | uint64(b[p+1])
		v, isInt, size = int64(u<<51)>>51, true, 2
	case c < 0xf0: // string of up to 4095 bytes
		if p+2 > len(b) {
			return it.fail(ErrCorrupt)
		}
		n := int(c&0x0f)<<8 | int(b[p+1])
		if p+2+n > len(b) {
			return it.fail(ErrCorrupt)
		}
		s, size = b[p+2:p+2+n], 2+n
	case c == 0xf0: // string of a 32-bit length
		if p+5 > len(b) {
			return it.fail(ErrCorrupt)
		}
		n := uint64(binary.LittleEndian.Uint32(b[p+1:]))
		if uint64(p)+5+n > uint64(len(b)) {
			return it.fail(ErrCorrupt)
		}
		s, size = b[p+5:p+5+int(n)], 5+int(n)
	case c >= 0xf1 && c <= 0xf4: // 16, 24, 32 and 64-bit integers
		w := [...]int{2, 3, 4, 8}[c-0xf1]
		if p+1+w > len(b) {
			return it.fail(ErrCorrupt)
		}
		d := b[p+1 : p+1+w]
		switch w {
		case 2:
			v = int64(int16(binary.LittleEndian.Uint16(d)))
		case 3:
			v = int64(int32(uint32(d[0])<<8|uint32(d[1])<<16|uint32(d[2])<<24)) >> 8
		case 4:
			v = int64(int32(binary.LittleEndian.Uint32(d)))
		default:
			v = int64(binary.LittleEndian.Uint64(d))
		}
		isInt, size = true, 1+w
	default:
		return it.fail(ErrCorrupt)
	}
	bl := BacklenSize(size)
	if p+size+bl > len(b)-1 {
		return it.fail(ErrCorrupt)
	}
	if !BacklenIs(b[p+size:p+size+bl], size) {
		return it.fail(fmt.Errorf("%w: the back-length of the entry at byte %d is not its length %d", ErrCorrupt, p, size))
	}
	it.p = p + size + bl
	it.seen++
	return s, v, isInt, true
}

func (it *Iterator) fail(err error) (s []byte, v int64, isInt, ok bool) {
	it.err = err
	return nil, 0, false, false
}
