package decoder

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/rdbgen/rdbgen/rdb/internal/intset"
	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
	"github.com/rdbgen/rdbgen/rdb/internal/ziplist"
	"github.com/rdbgen/rdbgen/rdb/internal/zipmap"
	"github.com/rdbgen/rdbgen/record"
)

// The compact encodings Redis stores as one string: listpacks (7.0+), ziplists (before),
// intsets and zipmaps (2.x hashes). A packIter walks one with the iterator of its package
// (rdb/internal/listpack, ziplist, intset, zipmap), which bounds-checks every step and applies
// the rules of Redis's deep sanitization: a damaged blob is an error wrapping ErrCorrupt,
// never a panic.

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

// A packIter yields the entries of one blob, as strings or integers. It is a value: a copy
// walks on from where the original stands, and leaves it there.
type packIter struct {
	kind  packKind
	count int   // the header's entry count, -1 when unknown
	err   error // what ended the walk: damage, wrapping ErrCorrupt
	lp    listpack.Iterator
	zl    ziplist.Iterator
	is    intset.Iterator
	zm    zipmap.Iterator
}

// open validates the header of b as kind and positions the iterator at its first entry.
func (it *packIter) open(kind packKind, b []byte) error {
	it.kind, it.err = kind, nil // the iterator of kind is reset by its Open; the others are unused
	var err error
	switch kind {
	case kindListpack:
		err = it.lp.Open(b)
		it.count = it.lp.Count()
	case kindZiplist:
		err = it.zl.Open(b)
		it.count = it.zl.Count()
	case kindIntset:
		err = it.is.Open(b)
		it.count = it.is.Count()
	default:
		err = it.zm.Open(b)
		it.count = it.zm.Count()
	}
	if err != nil {
		it.err = corruptBlob(err)
	}
	return it.err
}

// next returns the next entry: a string s, or an integer v when isInt. ok is false at the
// end of the blob or on an error (see it.err). Each case returns on its own: an entry goes
// back from the iterator without passing through a join.
func (it *packIter) next() (s []byte, v int64, isInt, ok bool) {
	switch it.kind {
	case kindListpack:
		if s, v, isInt, ok := it.lp.Next(); ok {
			return s, v, isInt, true
		}
	case kindZiplist:
		if s, v, isInt, ok := it.zl.Next(); ok {
			return s, v, isInt, true
		}
	case kindIntset:
		if v, ok := it.is.Next(); ok {
			return nil, v, true, true
		}
	default:
		if s, ok := it.zm.Next(); ok {
			return s, 0, false, true
		}
	}
	it.stop()
	return nil, 0, false, false
}

// stop sets it.err, at the end of the blob, to the error of the iterator that ended there,
// if any.
func (it *packIter) stop() {
	if it.err != nil {
		return
	}
	var err error
	switch it.kind {
	case kindListpack:
		err = it.lp.Err()
	case kindZiplist:
		err = it.zl.Err()
	case kindIntset:
		err = it.is.Err()
	default:
		err = it.zm.Err()
	}
	if err != nil {
		it.err = corruptBlob(err)
	}
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
