package decoder

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
	"github.com/rdbgen/rdbgen/record"
)

// The compact encodings Redis stores as one string: listpacks (7.0+), ziplists (before),
// intsets and zipmaps (2.x hashes). A packIter walks one, bounds-checking every step: a
// damaged blob is an error, never a panic (listpacks: rdb/internal/listpack's Iterator). It
// applies the rules of Redis's deep sanitization (sanitize-dump-payload yes:
// ziplistValidateIntegrity, intsetValidateIntegrity, zipmapValidateIntegrity), which a
// server that loads a file without it does not check and later crashes on: the header's
// count and total bytes agree with the entries, each ziplist entry's previous length is
// right, a ziplist's tail offset points at its last entry, an intset is not empty and its
// integers ascend.

var (
	errBadZiplist = fmt.Errorf("%w ziplist", ErrCorrupt)
	errBadIntset  = fmt.Errorf("%w intset", ErrCorrupt)
	errBadZipmap  = fmt.Errorf("%w zipmap", ErrCorrupt)
)

// numArena holds the decimal forms of integer entries. Slices it returned stay valid after a
// reset: a full arena is replaced, never grown in place.
type numArena struct{ b []byte }

func (a *numArena) reset() { a.b = a.b[:0] }

func (a *numArena) int(v int64) []byte {
	if cap(a.b)-len(a.b) < 20 {
		a.b = make([]byte, 0, 4096)
	}
	start := len(a.b)
	a.b = strconv.AppendInt(a.b, v, 10)
	return a.b[start:len(a.b):len(a.b)]
}

func (a *numArena) uint(v uint64) []byte {
	if cap(a.b)-len(a.b) < 20 {
		a.b = make([]byte, 0, 4096)
	}
	start := len(a.b)
	a.b = strconv.AppendUint(a.b, v, 10)
	return a.b[start:len(a.b):len(a.b)]
}

// packKind is the encoding a packIter walks.
type packKind uint8

const (
	kindListpack packKind = iota
	kindZiplist
	kindIntset
	kindZipmap
)

// A packIter yields the entries of one blob, as strings or integers.
type packIter struct {
	kind  packKind
	b     []byte
	p     int
	count int // the header's element count, -1 when unknown
	width int // intsets
	left  int // intsets and zipmaps: entries not yet read
	seen  int // listpacks and ziplists: entries read
	prev  int // ziplists: the size of the entry read last; its offset in last
	last  int
	err   error
	lp    listpack.Iterator
}

// open validates the header of b as kind and positions the iterator at its first entry.
func (it *packIter) open(kind packKind, b []byte) error {
	*it = packIter{kind: kind, b: b, count: -1}
	switch kind {
	case kindListpack:
		if err := it.lp.Open(b); err != nil {
			return corruptBlob(err)
		}
		it.count = it.lp.Count()
	case kindZiplist:
		if len(b) < 11 || int(binary.LittleEndian.Uint32(b)) != len(b) || b[len(b)-1] != 0xff {
			return errBadZiplist
		}
		if n := binary.LittleEndian.Uint16(b[8:]); n != 0xffff {
			it.count = int(n)
		}
		if binary.LittleEndian.Uint32(b[4:]) > uint32(len(b)-1) { // the tail offset
			return errBadZiplist
		}
		it.p = 10
	case kindIntset:
		if len(b) < 8 {
			return errBadIntset
		}
		w, n := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
		if (w != 2 && w != 4 && w != 8) || uint64(len(b)) != 8+uint64(w)*uint64(n) || n == 0 {
			return errBadIntset
		}
		it.width, it.count, it.left, it.p = int(w), int(n), int(n), 8
	case kindZipmap:
		if len(b) < 2 || b[len(b)-1] != 0xff {
			return errBadZipmap
		}
		if b[0] < 254 {
			it.count = int(b[0]) * 2
		}
		it.p = 1
	}
	return nil
}

// next returns the next entry: a string s, or an integer v when isInt. ok is false at the
// end of the blob or on an error (see it.err).
func (it *packIter) next() (s []byte, v int64, isInt, ok bool) {
	if it.err != nil {
		return nil, 0, false, false
	}
	switch it.kind {
	case kindListpack:
		if s, v, isInt, ok = it.lp.Next(); !ok {
			if err := it.lp.Err(); err != nil {
				it.err = corruptBlob(err)
			}
		}
	case kindZiplist:
		s, v, isInt, ok = it.nextZiplist()
	case kindIntset:
		if it.left == 0 {
			return nil, 0, false, false
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
		if it.left < it.count && v <= it.prevInt() {
			if v == it.prevInt() {
				return it.fail(fmt.Errorf("%w: %w %q: Redis refuses the file; repair the source", errBadIntset, record.ErrDuplicateMember, strconv.FormatInt(v, 10)))
			}
			return it.fail(fmt.Errorf("%w: %d after %d, not ascending", errBadIntset, v, it.prevInt()))
		}
		it.p += it.width
		it.left--
		return nil, v, true, true
	case kindZipmap:
		s, ok = it.nextZipmap()
	}
	return s, v, isInt, ok
}

// prevInt returns the intset's integer before the one at it.p.
func (it *packIter) prevInt() int64 {
	b := it.b[it.p-it.width : it.p]
	switch it.width {
	case 2:
		return int64(int16(binary.LittleEndian.Uint16(b)))
	case 4:
		return int64(int32(binary.LittleEndian.Uint32(b)))
	}
	return int64(binary.LittleEndian.Uint64(b))
}

// end checks, at the terminator of a listpack or ziplist, that the header's count is the
// number of entries read.
func (it *packIter) end(bad error) (s []byte, v int64, isInt, ok bool) {
	if it.count >= 0 && it.seen != it.count {
		return it.fail(fmt.Errorf("%w: its header says %d entries, it holds %d", bad, it.count, it.seen))
	}
	return nil, 0, false, false
}

// corruptBlob returns the damage an iterator of rdb/internal found as the reader's, under
// ErrCorrupt ("decoder: corrupt listpack: ...").
func corruptBlob(err error) error { return fmt.Errorf("%w %w", ErrCorrupt, err) }

func (it *packIter) fail(err error) (s []byte, v int64, isInt, ok bool) {
	it.err = err
	return nil, 0, false, false
}

func (it *packIter) nextZiplist() (s []byte, v int64, isInt, ok bool) {
	b := it.b
	p := it.p
	if p >= len(b) {
		return it.fail(errBadZiplist)
	}
	if b[p] == 0xff {
		if p != len(b)-1 {
			return it.fail(errBadZiplist)
		}
		if it.seen > 0 && int(binary.LittleEndian.Uint32(b[4:])) != it.last {
			return it.fail(fmt.Errorf("%w: its tail offset %d is not its last entry's, %d", errBadZiplist, binary.LittleEndian.Uint32(b[4:]), it.last))
		}
		return it.end(errBadZiplist)
	}
	// prevlen: the size of the entry before
	start, prev := p, int(b[p])
	if b[p] == 0xfe {
		if p+5 >= len(b) {
			return it.fail(errBadZiplist)
		}
		prev = int(binary.LittleEndian.Uint32(b[p+1:]))
		p += 5
	} else {
		p++
	}
	if prev != it.prev {
		return it.fail(fmt.Errorf("%w: the entry at byte %d says the one before has %d bytes, not %d", errBadZiplist, start, prev, it.prev))
	}
	if p >= len(b) {
		return it.fail(errBadZiplist)
	}
	c := b[p]
	switch c >> 6 {
	case 0, 1, 2:
		var n, hdr int
		switch c >> 6 {
		case 0:
			n, hdr = int(c&0x3f), 1
		case 1:
			if p+2 > len(b) {
				return it.fail(errBadZiplist)
			}
			n, hdr = int(c&0x3f)<<8|int(b[p+1]), 2
		default:
			if c != 0x80 || p+5 > len(b) {
				return it.fail(errBadZiplist)
			}
			u := binary.BigEndian.Uint32(b[p+1:])
			if uint64(u) > uint64(len(b)) {
				return it.fail(errBadZiplist)
			}
			n, hdr = int(u), 5
		}
		if p+hdr+n > len(b)-1 {
			return it.fail(errBadZiplist)
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
		if c >= 0xf1 && c <= 0xfd {
			it.step(start, p+1)
			return nil, int64(c&0x0f) - 1, true, true
		}
		return it.fail(errBadZiplist)
	}
	if p+1+w > len(b)-1 {
		return it.fail(errBadZiplist)
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

// step moves a ziplist iterator past the entry from start to end.
func (it *packIter) step(start, end int) {
	it.p, it.prev, it.last = end, end-start, start
	it.seen++
}

// nextZipmap yields keys and values alternately.
func (it *packIter) nextZipmap() ([]byte, bool) {
	b := it.b
	p := it.p
	if p >= len(b) {
		it.err = errBadZipmap
		return nil, false
	}
	if b[p] == 0xff {
		switch {
		case p != len(b)-1 || it.left%2 != 0 || it.left == 0:
			it.err = errBadZipmap
		case it.count >= 0 && it.left != it.count:
			it.err = fmt.Errorf("%w: its header says %d fields, it holds %d", errBadZipmap, it.count/2, it.left/2)
		}
		return nil, false
	}
	var n int
	if b[p] < 254 {
		n, p = int(b[p]), p+1
	} else if b[p] == 254 && p+5 <= len(b) {
		n, p = int(binary.LittleEndian.Uint32(b[p+1:])), p+5
	} else {
		it.err = errBadZipmap
		return nil, false
	}
	free := 0
	if it.left%2 == 1 { // a value: its free byte
		if p >= len(b) {
			it.err = errBadZipmap
			return nil, false
		}
		free, p = int(b[p]), p+1
	}
	if n < 0 || p+n+free > len(b)-1 {
		it.err = errBadZipmap
		return nil, false
	}
	it.left++
	it.p = p + n + free
	return b[p : p+n], true
}
