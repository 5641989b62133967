// Package zipmap reads zipmaps, the compact encoding of small hashes of Redis before 2.6
// (RDB type 9), which the writer never writes: a field count (1 byte, 254 or more when
// unknown), then fields and values, each a length (1 byte under 254, else 0xFE and a uint32
// LE) and its bytes, a value's length followed by a count of free bytes to skip after it,
// and an 0xFF terminator (zipmap.c). The Iterator checks what Redis's deep sanitization
// checks (zipmapValidateIntegrity).
package zipmap

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCorrupt is the error of a damaged zipmap; the errors that wrap it say what is wrong.
// Its text is the word "zipmap", for a reader to put under its own "corrupt".
var ErrCorrupt = errors.New("zipmap")

// An Iterator yields the fields and values of one zipmap alternately, bounds-checking every
// step: a damaged zipmap, or an empty one, is an error, never a panic. Open starts one.
type Iterator struct {
	b     []byte
	p     int // offset of the next entry
	count int // entries (fields and values) the header says, -1 when unknown
	read  int // entries read
	err   error
}

// Open validates the header of b and positions it at its first field.
func (it *Iterator) Open(b []byte) error {
	*it = Iterator{b: b, count: -1}
	if len(b) < 2 || b[len(b)-1] != 0xff {
		it.err = ErrCorrupt
		return ErrCorrupt
	}
	if b[0] == 255 { // Redis's zipmapValidateIntegrity: a count, or 254 (ZIPMAP_BIGLEN)
		it.err = fmt.Errorf("%w: its header's field count is 255 (a count under 254, or 254)", ErrCorrupt)
		return it.err
	}
	if b[0] < 254 {
		it.count = int(b[0]) * 2
	}
	it.p = 1
	return nil
}

// Count returns the entries, fields and values, that the header says, -1 when it does not
// say (254 fields or more).
func (it *Iterator) Count() int { return it.count }

// Err returns the error that ended the iteration, nil at the end of a sound zipmap.
func (it *Iterator) Err() error { return it.err }

// Next returns the next field or value, a slice of the zipmap; ok is false at the end or on
// an error (see Err). At the end it checks that the zipmap held whole fields, at least one,
// and as many as its header says.
func (it *Iterator) Next() (s []byte, ok bool) {
	if it.err != nil {
		return nil, false
	}
	b := it.b
	p := it.p
	if p >= len(b) {
		it.err = ErrCorrupt
		return nil, false
	}
	if b[p] == 0xff {
		switch {
		case p != len(b)-1 || it.read%2 != 0 || it.read == 0:
			it.err = ErrCorrupt
		case it.count >= 0 && it.read != it.count:
			it.err = fmt.Errorf("%w: its header says %d fields, it holds %d", ErrCorrupt, it.count/2, it.read/2)
		}
		return nil, false
	}
	var n int
	if b[p] < 254 {
		n, p = int(b[p]), p+1
	} else if b[p] == 254 && p+5 <= len(b) {
		n, p = int(binary.LittleEndian.Uint32(b[p+1:])), p+5
	} else {
		it.err = ErrCorrupt
		return nil, false
	}
	free := 0
	if it.read%2 == 1 { // a value: its free byte
		if p >= len(b) {
			it.err = ErrCorrupt
			return nil, false
		}
		free, p = int(b[p]), p+1
	}
	if n < 0 || p+n+free > len(b)-1 {
		it.err = ErrCorrupt
		return nil, false
	}
	it.read++
	it.p = p + n + free
	return b[p : p+n], true
}
