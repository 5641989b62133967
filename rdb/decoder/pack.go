package decoder

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/rdbgen/rdbgen/rdb/internal/intset"
	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
	"github.com/rdbgen/rdbgen/rdb/internal/ziplist"
	"github.com/rdbgen/rdbgen/record"
)

// The compact encodings Redis stores as one string: listpacks (7.0+), ziplists (before),
// intsets and zipmaps (2.x hashes). A packIter walks one, bounds-checking every step: a
// damaged blob is an error, never a panic (listpacks, ziplists and intsets: the Iterators
// of rdb/internal/listpack, ziplist and intset). It applies the rules of Redis's deep
// sanitization (sanitize-dump-payload yes: zipmapValidateIntegrity), which a server that
// loads a file without it does not check and later crashes on.

var errBadZipmap = fmt.Errorf("%w zipmap", ErrCorrupt)

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
	left  int // zipmaps: entries read
	err   error
	lp    listpack.Iterator
	zl    ziplist.Iterator
	is    intset.Iterator
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
		if err := it.is.Open(b); err != nil {
			return corruptBlob(err)
		}
		it.count = it.is.Count()
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
		if v, ok = it.is.Next(); !ok {
			if err := it.is.Err(); err != nil {
				it.err = corruptBlob(err)
			}
		}
		isInt = ok
	case kindZipmap:
		s, ok = it.nextZipmap()
	}
	return s, v, isInt, ok
}

// corruptBlob returns the damage an iterator of rdb/internal found as the reader's: under
// ErrCorrupt ("decoder: corrupt listpack: ..."), and a repeated intset member as the
// duplicate member it is.
func corruptBlob(err error) error {
	if oe, ok := errors.AsType[*intset.OrderError](err); ok && oe.V == oe.Prev {
		return fmt.Errorf("%w %w: %w %q: Redis refuses the file; repair the source", ErrCorrupt, intset.ErrCorrupt, record.ErrDuplicateMember, strconv.FormatInt(oe.V, 10))
	}
	return fmt.Errorf("%w %w", ErrCorrupt, err)
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
