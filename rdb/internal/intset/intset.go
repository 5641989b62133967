// Package intset writes and reads intsets, the compact encoding of small sets of integers:
// the width of its integers (uint32 LE: 2, 4 or 8 bytes, the smallest that holds every
// member), the member count (uint32 LE), then the members sorted ascending, little-endian
// (intset.c). The Iterator checks what Redis's deep sanitization checks
// (intsetValidateIntegrity): the header agrees with the size, the set is not empty and its
// integers ascend.
package intset

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Width returns the bytes per member of an intset holding values from lo to hi.
func Width(lo, hi int64) int {
	switch {
	case lo < -1<<31 || hi > 1<<31-1:
		return 8
	case lo < -1<<15 || hi > 1<<15-1:
		return 4
	default:
		return 2
	}
}

// Append appends the intset of vs, which must be sorted ascending, unique and not empty.
func Append(b []byte, vs []int64) []byte {
	width := Width(vs[0], vs[len(vs)-1])
	b = binary.LittleEndian.AppendUint32(b, uint32(width))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(vs)))
	for _, v := range vs {
		switch width {
		case 2:
			b = binary.LittleEndian.AppendUint16(b, uint16(v))
		case 4:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		default:
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
	}
	return b
}

// ErrCorrupt is the error of a damaged intset; the errors that wrap it say what is wrong.
// Its text is the word "intset", for a reader to put under its own "corrupt".
var ErrCorrupt = errors.New("intset")

// An OrderError is an integer V that does not ascend from the one before it, Prev: a
// duplicate member when they are equal. It wraps ErrCorrupt.
type OrderError struct{ Prev, V int64 }

func (e *OrderError) Error() string {
	return fmt.Sprintf("%v: %d after %d, not ascending", ErrCorrupt, e.V, e.Prev)
}

// Unwrap returns ErrCorrupt.
func (e *OrderError) Unwrap() error { return ErrCorrupt }

// An Iterator yields the integers of one intset, bounds-checked when it is opened. Open
// starts one.
type Iterator struct {
	b     []byte
	p     int // offset of the next integer
	width int
	count int   // the header's member count
	left  int   // integers not yet read
	prev  int64 // the integer read last
	err   error
}

// Open validates the header of b and positions it at its first integer.
func (it *Iterator) Open(b []byte) error {
	*it = Iterator{b: b}
	if len(b) < 8 {
		it.err = ErrCorrupt
		return ErrCorrupt
	}
	w, n := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
	if (w != 2 && w != 4 && w != 8) || uint64(len(b)) != 8+uint64(w)*uint64(n) || n == 0 {
		it.err = ErrCorrupt
		return ErrCorrupt
	}
	it.width, it.count, it.left, it.p = int(w), int(n), int(n), 8
	return nil
}

// Count returns the member count of the header.
func (it *Iterator) Count() int { return it.count }

// Err returns the error that ended the iteration, nil at the end of a sound intset.
func (it *Iterator) Err() error { return it.err }

// Next returns the next integer; ok is false at the end or on an error (see Err): an
// *OrderError when v does not ascend.
func (it *Iterator) Next() (v int64, ok bool) {
	if it.left == 0 || it.err != nil {
		return 0, false
	}
	b := it.b[it.p : it.p+it.width]
	switch it.width {
	case 2:
		v = int64(int16(binary.LittleEndian.Uint16(b)))
	case 4:
		v = int64(int32(binary.LittleEndian.Uint32(b)))
	default:
		v = int64(binary.LittleEndian.Uint64(b))
	}
	if v <= it.prev && it.left < it.count {
		it.err = &OrderError{Prev: it.prev, V: v}
		return 0, false
	}
	it.prev = v
	it.p += it.width
	it.left--
	return v, true
}
