package ziplist

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCorrupt is the error of a damaged ziplist; the errors that wrap it say what is wrong.
// Its text is the word "ziplist", for a reader to put under its own "corrupt".
var ErrCorrupt = errors.New("ziplist")

// An Iterator yields the entries of one ziplist, as strings or integers, bounds-checking
// every step: a damaged ziplist is an error, never a panic. It applies the rules of Redis's
// deep sanitization (ziplistValidateIntegrity), which a server that loads a file without it
// does not check and later crashes on: the header's total bytes and count agree with the
// entries, each entry's previous length is right, and the tail offset points at the last
// entry. Open starts one.
type Iterator struct {
	b     []byte
	p     int // offset of the next entry
	count int // the header's entry count, -1 when unknown
	seen  int // entries read
	prev  int // the size of the entry read last; its offset in last
	last  int
	err   error
}

// Open validates the header of b and positions it at its first entry.
func (it *Iterator) Open(b []byte) error {
	*it = Iterator{b: b, count: -1}
	if len(b) < HeaderLen+1 || int(binary.LittleEndian.Uint32(b)) != len(b) || b[len(b)-1] != end ||
		binary.LittleEndian.Uint32(b[4:]) > uint32(len(b)-1) { // the tail offset
		it.err = ErrCorrupt
		return ErrCorrupt
	}
	if n := binary.LittleEndian.Uint16(b[8:]); n != maxCount {
		it.count = int(n)
	}
	it.p = HeaderLen
	return nil
}

// Count returns the entry count of the header, -1 when it does not say (65535 or more).
func (it *Iterator) Count() int { return it.count }

// Err returns the error that ended the iteration, nil at the end of a sound ziplist.
func (it *Iterator) Err() error { return it.err }

// Next returns the next entry: a string s (a slice of the ziplist), or an integer v when
// isInt. ok is false at the end of the ziplist or on an error (see Err). At the end it checks
// the tail offset, and that the header's count is the number of entries read.
func (it *Iterator) Next() (s []byte, v int64, isInt, ok bool) {
	if it.err != nil {
		return nil, 0, false, false
	}
	b := it.b
	p := it.p
	if p >= len(b) {
		return it.fail(ErrCorrupt)
	}
	if b[p] == end {
		return it.end()
	}
	// prevlen: the size of the entry before
	start, prev := p, int(b[p])
	if b[p] == bigPrev {
		if p+5 >= len(b) {
			return it.fail(ErrCorrupt)
		}
		prev = int(binary.LittleEndian.Uint32(b[p+1:]))
		p += 5
	} else {
		p++
	}
	if prev != it.prev {
		return it.fail(fmt.Errorf("%w: the entry at byte %d says the one before has %d bytes, not %d", ErrCorrupt, start, prev, it.prev))
	}
	if p >= len(b) {
		return it.fail(ErrCorrupt)
	}
	c := b[p]
	if c>>6 < 3 { // a string: 6, 14 or 32-bit length
		var n, hdr int
		switch c >> 6 {
		case 0:
			n, hdr = int(c&0x3f), 1
		case 1:
			if p+2 > len(b) {
				return it.fail(ErrCorrupt)
			}
			n, hdr = int(c&0x3f)<<8|int(b[p+1]), 2
		default:
			if c != 0x80 || p+5 > len(b) {
				return it.fail(ErrCorrupt)
			}
			u := binary.BigEndian.Uint32(b[p+1:])
			if uint64(u) > uint64(len(b)) {
				return it.fail(ErrCorrupt)
			}
			n, hdr = int(u), 5
		}
		if p+hdr+n > len(b)-1 {
			return it.fail(ErrCorrupt)
		}
		it.step(start, p+hdr+n)
		return b[p+hdr : p+hdr+n], 0, false, true
	}
	var w int
	switch c {
	case 0xc0:
		w = 2
	case 0xd0:
		w = 4
	case 0xe0:
		w = 8
	case 0xf0:
		w = 3
	case 0xfe:
		w = 1
	default:
		if c >= 0xf1 && c <= 0xfd { // 0 to 12 in the encoding
			it.step(start, p+1)
			return nil, int64(c&0x0f) - 1, true, true
		}
		return it.fail(ErrCorrupt)
	}
	if p+1+w > len(b)-1 {
		return it.fail(ErrCorrupt)
	}
	d := b[p+1 : p+1+w]
	switch w {
	case 1:
		v = int64(int8(d[0]))
	case 2:
		v = int64(int16(binary.LittleEndian.Uint16(d)))
	case 3:
		v = int64(int32(uint32(d[0])<<8|uint32(d[1])<<16|uint32(d[2])<<24)) >> 8
	case 4:
		v = int64(int32(binary.LittleEndian.Uint32(d)))
	default:
		v = int64(binary.LittleEndian.Uint64(d))
	}
	it.step(start, p+1+w)
	return nil, v, true, true
}

// end checks the terminator at it.p, the tail offset and the count.
func (it *Iterator) end() (s []byte, v int64, isInt, ok bool) {
	b := it.b
	if it.p != len(b)-1 {
		return it.fail(ErrCorrupt)
	}
	if tail := binary.LittleEndian.Uint32(b[4:]); it.seen > 0 && int(tail) != it.last {
		return it.fail(fmt.Errorf("%w: its tail offset %d is not its last entry's, %d", ErrCorrupt, tail, it.last))
	}
	if it.count >= 0 && it.seen != it.count {
		return it.fail(fmt.Errorf("%w: its header says %d entries, it holds %d", ErrCorrupt, it.count, it.seen))
	}
	return nil, 0, false, false
}

// step moves past the entry from start to end.
func (it *Iterator) step(start, end int) {
	it.p, it.prev, it.last = end, end-start, start
	it.seen++
}

func (it *Iterator) fail(err error) (s []byte, v int64, isInt, ok bool) {
	it.err = err
	return nil, 0, false, false
}
