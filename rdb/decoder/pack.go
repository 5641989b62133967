package decoder

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
	"github.com/rdbgen/rdbgen/rdb/internal/ziplist"
	"github.com/rdbgen/rdbgen/record"
)

// The compact encodings Redis stores as one string: listpacks (7.0+), ziplists (before),
// intsets and zipmaps (2.x hashes). A packIter walks one, bounds-checking every step: a
// damaged blob is an error, never a panic (listpacks and ziplists: the Iterators of
// rdb/internal/listpack and ziplist). It applies the rules of Redis's deep sanitization
// (sanitize-dump-payload yes: intsetValidateIntegrity, zipmapValidateIntegrity), which a
// server that loads a file without it does not check and later crashes on: the header's
// count and total bytes agree with the entries, an intset is not empty and its integers
// ascend.

var (
	errBadIntset = fmt.Errorf("%w intset", ErrCorrupt)
	errBadZipmap = fmt.Errorf("%w zipmap", ErrCorrupt)
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
	err   error
	lp    listpack.Iterator
	zl    ziplist.Iterator
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
		if err := it.zl.Open(b); err != nil {
			return corruptBlob(err)
		}
		it.count = it.zl.Count()
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
		if s, v, isInt, ok = it.zl.Next(); !ok {
			if err := it.zl.Err(); err != nil {
				it.err = corruptBlob(err)
			}
		}
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

// corruptBlob returns the damage an iterator of rdb/internal found as the reader's, under
// ErrCorrupt ("decoder: corrupt listpack: ...", "... ziplist: ...").
func corruptBlob(err error) error { return fmt.Errorf("%w %w", ErrCorrupt, err) }

func (it *packIter) fail(err error) (s []byte, v int64, isInt, ok bool) {
	it.err = err
	return nil, 0, false, false
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
