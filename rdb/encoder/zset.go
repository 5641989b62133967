package encoder

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/rdbgen/rdbgen/rdb"
)

// Sorted sets: a listpack (type 17, RDB 10+) or ziplist (type 12, before) of member, score,
// member, score… in ascending score order (ties by member bytes), as Redis keeps them, when
// there are at most ZSetMaxListpackEntries members of at most ZSetMaxListpackValue bytes;
// else the plain type 5 with binary double scores (type 3 with decimal scores for RDB 7),
// streamed. Redis loads a plain sorted set fastest when its members come in descending score
// order, the order Redis itself writes.

// BeginZSet opens a sorted-set record of the given number of members, each then added with
// AddScoredMember. expireAtMS is the absolute expiry in Unix ms, or 0 for none. A sorted
// set over the entries threshold streams in constant memory; a smaller one is held until
// End.
func (w *Writer) BeginZSet(key []byte, members uint64, expireAtMS int64) error {
	if err := w.beginCollection(zsetCollection, key, members, expireAtMS); err != nil {
		return err
	}
	if members > uint64(w.limits.ZSetMaxListpackEntries) {
		w.startPlain(w.plainZSetType())
		return w.maybeFlush()
	}
	return nil
}

// BeginSkiplistZSet opens a sorted set as BeginZSet does, for scores a server held as
// doubles (a skiplist, record.Header.DoubleScores). Packed into a listpack (RDB 10+), a -0
// score is written 0, what Redis 7.0+ and Valkey hold once they load such a skiplist small
// enough for a listpack: they store an integral score as an integer (zzlInsertAt). A
// ziplist (RDB 9 and before) keeps "-0", as Redis 6.2 does; a plain sorted set keeps -0.
func (w *Writer) BeginSkiplistZSet(key []byte, members uint64, expireAtMS int64) error {
	if err := w.BeginZSet(key, members, expireAtMS); err != nil {
		return err
	}
	w.coll.doubles = true
	return nil
}

// AddScoredMember adds a member with its score to the open sorted set. Members must be
// unique (see "Unique members"); the score may be ±Inf but not NaN (ErrNaNScore).
func (w *Writer) AddScoredMember(member []byte, score float64) error {
	if err := w.checkAdd(zsetCollection, member); err != nil {
		return err
	}
	c := &w.coll
	if math.IsNaN(score) {
		return w.fail(fmt.Errorf("write key %q: member %q: %w", c.key, member, ErrNaNScore))
	}
	if !c.plain && len(member) > w.limits.ZSetMaxListpackValue {
		w.startPlain(w.plainZSetType())
	}
	if c.plain {
		w.buf = w.appendString(w.buf, member)
		w.buf = w.appendPlainScore(w.buf, score)
		return w.maybeFlush()
	}
	c.hold(member)
	c.scores = append(c.scores, score)
	return nil
}

func (w *Writer) plainZSetType() byte {
	if w.has.has(rdb.BinaryScores) {
		return typeZSet2
	}
	return typeZSet
}

// appendPlainScore appends a score of a plain sorted set.
func (w *Writer) appendPlainScore(b []byte, f float64) []byte {
	if w.has.has(rdb.BinaryScores) {
		return appendBinaryScore(b, f)
	}
	return appendASCIIScore(b, f)
}

// endZSet writes a held sorted set as a listpack or ziplist in score order.
func (w *Writer) endZSet() {
	c := &w.coll
	c.order = c.order[:0]
	for i := range c.ends {
		c.order = append(c.order, i)
	}
	if c.compare == nil {
		c.compare = c.compareMembers // bound once: a method value allocates
	}
	slices.SortFunc(c.order, c.compare)
	c.pack.ziplist = !w.has.has(rdb.ListpackEncodings)
	zeroInt := c.doubles && !c.pack.ziplist // -0 as the integer 0 (BeginSkiplistZSet)
	b := c.pack.begin(c.blob[:0])
	for _, i := range c.order {
		b = c.pack.add(b, c.member(i))
		if zeroInt && c.scores[i] == 0 {
			b = c.pack.addInt(b, 0)
		} else if v, ok := scoreInt(c.scores[i]); ok {
			b = c.pack.addInt(b, v)
		} else {
			var text [32]byte
			b = c.pack.add(b, appendScoreText(text[:0], c.scores[i]))
		}
	}
	c.blob = c.pack.finish(b)
	typ := byte(typeZSetListpack)
	if !w.has.has(rdb.ListpackEncodings) {
		typ = typeZSetZiplist
	}
	w.writeCompact(typ, c.blob)
}

// compareMembers orders held members i and j by score, then by bytes (zslInsert's order).
func (c *collection) compareMembers(i, j int) int {
	if r := cmp.Compare(c.scores[i], c.scores[j]); r != 0 {
		return r
	}
	return bytes.Compare(c.member(i), c.member(j))
}
