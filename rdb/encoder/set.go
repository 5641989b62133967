package encoder

import (
	"fmt"
	"slices"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/internal/canonint"
	"github.com/rdbgen/rdbgen/rdb/internal/intset"
)

// Sets, as Redis's setTypeCreate chooses: an intset (type 11) when every member is a
// canonical int64 and there are at most SetMaxIntsetEntries; else, from RDB 11 (Redis 7.2),
// a listpack (type 20) when there are at most SetMaxListpackEntries members of at most
// SetMaxListpackValue bytes; else the plain type 2, streamed.

// BeginSet opens a set record of the given number of members, each then added with
// AddMember. expireAtMS is the absolute expiry in Unix ms, or 0 for none. A set too large
// for an intset or listpack streams in constant memory; a smaller one is held until
// End.
func (w *Writer) BeginSet(key []byte, members uint64, expireAtMS int64) error {
	if err := w.beginCollection(setCollection, key, members, expireAtMS); err != nil {
		return err
	}
	if !w.intsetFits(members) && !w.setListpackFits(members) {
		w.startPlain(typeSet)
		return w.maybeFlush()
	}
	return nil
}

func (w *Writer) intsetFits(n uint64) bool { return n <= uint64(w.limits.SetMaxIntsetEntries) }

func (w *Writer) setListpackFits(n uint64) bool {
	return w.has.has(rdb.SetListpack) && n <= uint64(w.limits.SetMaxListpackEntries)
}

// AddMember adds a member to the open set. Members must be unique (see "Unique members").
func (w *Writer) AddMember(member []byte) error {
	if err := w.checkAdd(setCollection, member); err != nil {
		return err
	}
	c := &w.coll
	if !c.plain {
		if v, ok := canonint.Parse(member); ok {
			c.ints = append(c.ints, v)
		} else {
			c.allInts = false
		}
		c.hold(member)
		intset := c.allInts && w.intsetFits(c.declared)
		listpack := w.setListpackFits(c.declared) && c.maxLen <= w.limits.SetMaxListpackValue
		if intset || listpack {
			return nil
		}
		w.startPlain(typeSet)
		return w.maybeFlush()
	}
	w.buf = w.appendString(w.buf, member)
	return w.maybeFlush()
}

// endSet writes a held set as an intset or listpack.
func (w *Writer) endSet() error {
	c := &w.coll
	if !c.allInts || !w.intsetFits(c.declared) {
		w.writeCompact(typeSetListpack, w.packHeld())
		return nil
	}
	slices.Sort(c.ints)
	for i := 1; i < len(c.ints); i++ {
		if c.ints[i] == c.ints[i-1] {
			return fmt.Errorf("write key %q: member %d: %w", c.key, c.ints[i], ErrDuplicateMember)
		}
	}
	c.blob = intset.Append(c.blob[:0], c.ints)
	w.writeCompact(typeSetIntset, c.blob)
	return nil
}
