package encoder

import (
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
)

// The collection records common to hashes, sets, sorted sets and lists: see the package
// documentation, sections Collections and Unique members.

// Errors of collection writes, for errors.Is.
var (
	ErrMemberCount    = errors.New("encoder: member count differs from the declared one")
	ErrCollectionOpen = errors.New("encoder: a collection is open")
	ErrNoCollection   = errors.New("encoder: no collection of that type is open")
)

// Record type bytes of collections.
const (
	typeList            = 1
	typeSet             = 2
	typeZSet            = 3
	typeHash            = 4
	typeZSet2           = 5
	typeSetIntset       = 11
	typeZSetZiplist     = 12
	typeHashZiplist     = 13
	typeListQuicklist   = 14
	typeHashListpack    = 16
	typeZSetListpack    = 17
	typeListQuicklist2  = 18
	typeSetListpack     = 20
	quicklistNodePlain  = 1
	quicklistNodePacked = 2
)

type collKind uint8

const (
	noCollection collKind = iota
	hashCollection
	setCollection
	zsetCollection
	listCollection
	streamCollection
	hashTTLCollection
)

func (k collKind) String() string {
	return [...]string{"none", "hash", "set", "sorted set", "list", "stream", "hash with field TTLs"}[k]
}

// collection is the state of the open collection record.
type collection struct {
	kind     collKind
	key      []byte
	expireAt int64
	declared uint64
	added    uint64
	plain    bool // the record header is written: members go straight to the buffer

	// Members held for a compact encoding.
	members []byte    // the strings, back to back
	ends    []int     // end offset of each string in members
	scores  []float64 // sorted sets: one per member
	ints    []int64   // sets: the integer members
	ttls    []int64   // hashes with field TTLs: each field's expiry
	minTTL  int64     // hashes with field TTLs: the declared smallest field expiry
	noTTL   bool      // a hash with field TTLs written as a plain hash (Options.DropFieldTTL)
	doubles bool      // sorted sets: scores a server held as doubles (BeginSkiplistZSet)
	allInts bool      // sets: every member so far is an integer
	maxLen  int       // longest member so far

	blob      []byte              // the compact encoding being built
	order     []int               // sorted sets: members in score order
	compare   func(i, j int) int  // sorted sets: compareMembers, bound once
	nodeOpen  bool                // lists: a node is being packed in blob
	nodeCount uint64              // lists: nodes spooled
	enc       []byte              // scratch: a node being encoded for the spool
	seen      map[string]struct{} // members so far, with CheckDuplicates
	pack      packer
}

// member returns the i-th held string.
func (c *collection) member(i int) []byte {
	start := 0
	if i > 0 {
		start = c.ends[i-1]
	}
	return c.members[start:c.ends[i]]
}

// hold keeps s for the compact encoding.
func (c *collection) hold(s []byte) {
	c.members = append(c.members, s...)
	c.ends = append(c.ends, len(c.members))
	c.maxLen = max(c.maxLen, len(s))
}

// beginCollection opens a collection record of n members.
func (w *Writer) beginCollection(kind collKind, key []byte, n uint64, expireAtMS int64) error {
	if err := w.checkRecord(key, expireAtMS); err != nil {
		return err
	}
	if n == 0 {
		return w.fail(fmt.Errorf("write key %q: %w", key, ErrEmpty))
	}
	c := &w.coll
	c.kind, c.key, c.expireAt, c.declared, c.added, c.plain = kind, append(c.key[:0], key...), expireAtMS, n, 0, false
	c.members, c.ends, c.scores, c.ints, c.ttls = c.members[:0], c.ends[:0], c.scores[:0], c.ints[:0], c.ttls[:0]
	c.allInts, c.maxLen, c.noTTL, c.doubles = true, 0, false, false
	if w.checkDups && kind != listCollection && kind != streamCollection {
		if c.seen == nil || len(c.seen) > 4096 {
			c.seen = make(map[string]struct{})
		} else {
			clear(c.seen)
		}
	}
	return nil
}

// checkAdd checks that a member of kind may be added to the open collection, and counts it.
func (w *Writer) checkAdd(kind collKind, member []byte) error {
	if err := w.usableRecord(); err != nil {
		return err
	}
	c := &w.coll
	if c.kind != kind {
		return w.fail(fmt.Errorf("%w: add a %s member while %s is open", ErrNoCollection, kind, c.kind))
	}
	if c.added == c.declared {
		return w.fail(fmt.Errorf("write key %q: %w: more than the %d declared", c.key, ErrMemberCount, c.declared))
	}
	if w.checkDups && kind != listCollection {
		if _, dup := c.seen[string(member)]; dup {
			return w.fail(fmt.Errorf("write key %q: member %q: %w", c.key, member, ErrDuplicateMember))
		}
		c.seen[string(member)] = struct{}{}
	}
	c.added++
	w.stats.Members++
	return nil
}

// startPlain writes the record header of the plain type typ and the members held so far.
func (w *Writer) startPlain(typ byte) {
	c := &w.coll
	w.appendRecordHeader(c.key, c.expireAt, typ)
	w.buf = appendLength(w.buf, c.declared)
	for i := range c.ends {
		w.buf = w.appendString(w.buf, c.member(i))
		if c.kind == zsetCollection {
			w.buf = w.appendPlainScore(w.buf, c.scores[i])
		}
	}
	c.plain = true
	c.members, c.ends, c.scores, c.ints = c.members[:0], c.ends[:0], c.scores[:0], c.ints[:0]
}

// writeCompact writes the record header of type typ and the compact encoding in blob.
func (w *Writer) writeCompact(typ byte, blob []byte) {
	c := &w.coll
	w.appendRecordHeader(c.key, c.expireAt, typ)
	w.buf = w.appendString(w.buf, blob)
}

// End closes the open hash, list, set, sorted set or stream, writing it if it was held for
// a compact encoding. Every id in a stream consumer's Pending list must be in its group's,
// and every id of the group's in exactly one consumer's. End fails with ErrMemberCount when
// fewer members were added than declared.
func (w *Writer) End() error {
	if err := w.usableRecord(); err != nil {
		return err
	}
	c := &w.coll
	if c.kind == noCollection {
		return w.fail(fmt.Errorf("%w: end with none open", ErrNoCollection))
	}
	if c.added != c.declared {
		return w.fail(fmt.Errorf("write key %q: %w: declared %d, added %d", c.key, ErrMemberCount, c.declared, c.added))
	}
	if !c.plain {
		var err error
		switch c.kind {
		case hashCollection:
			w.endHash()
		case setCollection:
			err = w.endSet()
		case zsetCollection:
			w.endZSet()
		case listCollection:
			err = w.endList()
		case streamCollection:
			err = w.endStream()
		case hashTTLCollection:
			err = w.endHashTTL()
		}
		if err != nil {
			return w.fail(err)
		}
	}
	c.kind = noCollection
	return w.maybeFlush()
}

// packHeld builds the compact container of the held strings in c.blob.
func (w *Writer) packHeld() []byte {
	c := &w.coll
	c.pack.ziplist = !w.has.has(rdb.ListpackEncodings)
	b := c.pack.begin(c.blob[:0])
	for i := range c.ends {
		b = c.pack.add(b, c.member(i))
	}
	c.blob = c.pack.finish(b)
	return c.blob
}
