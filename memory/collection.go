package memory

import (
	"fmt"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// collection is what an Estimator keeps of the open collection: counters enough to price
// every encoding the server might choose, decided at EndCollection.
type collection struct {
	open     bool
	typ      record.Type
	key      []byte
	expireAt int64
	declared uint64
	added    uint64
	maxLen   int   // longest member, field or value
	lp       int64 // entry bytes of the listpack form
	table    int64 // per-member bytes of the dict form: entries, sds strings, skiplist nodes
	zslNodes float64
	allInts  bool // sets: every member an integer
	lo, hi   int64
	fieldTTL bool // hashes opened with BeginHashWithFieldTTL
	list     quicklist
	stream   streamUsage
}

// begin opens a collection of type typ.
func (e *Estimator) begin(typ record.Type, key []byte, n uint64, expireAtMS int64) error {
	if e.err != nil {
		return e.err
	}
	if e.coll.open {
		return e.fail(fmt.Errorf("write key %q: %w", key, encoder.ErrCollectionOpen))
	}
	if e.db == nil {
		return e.fail(fmt.Errorf("write key %q: %w", key, encoder.ErrNoDB))
	}
	c := &e.coll
	*c = collection{open: true, typ: typ, key: append(c.key[:0], key...), expireAt: expireAtMS,
		declared: n, allInts: true, list: quicklist{fill: e.limits.ListMaxListpackSize}}
	return nil
}

// add checks that a member of type typ may be added, and counts it.
func (e *Estimator) add(typ record.Type) error {
	if e.err != nil {
		return e.err
	}
	if !e.coll.open || e.coll.typ != typ {
		return e.fail(fmt.Errorf("%w: add a %s member", encoder.ErrNoCollection, typ))
	}
	e.coll.added++
	return nil
}

// BeginHash opens a hash of n fields.
func (e *Estimator) BeginHash(key []byte, n uint64, expireAtMS int64) error {
	return e.begin(record.Hash, key, n, expireAtMS)
}

// BeginHashWithFieldTTL opens a hash of n fields some of which expire.
func (e *Estimator) BeginHashWithFieldTTL(key []byte, n uint64, expireAtMS, _ int64) error {
	if err := e.begin(record.Hash, key, n, expireAtMS); err != nil {
		return err
	}
	e.coll.fieldTTL = e.model.fieldTTL
	return nil
}

// BeginList opens a list of n elements.
func (e *Estimator) BeginList(key []byte, n uint64, expireAtMS int64) error {
	return e.begin(record.List, key, n, expireAtMS)
}

// BeginSet opens a set of n members.
func (e *Estimator) BeginSet(key []byte, n uint64, expireAtMS int64) error {
	return e.begin(record.Set, key, n, expireAtMS)
}

// BeginZSet opens a sorted set of n members.
func (e *Estimator) BeginZSet(key []byte, n uint64, expireAtMS int64) error {
	return e.begin(record.ZSet, key, n, expireAtMS)
}

// AddField counts a field and its value of the open hash.
func (e *Estimator) AddField(field, value []byte) error {
	if err := e.add(record.Hash); err != nil {
		return err
	}
	c := &e.coll
	c.maxLen = max(c.maxLen, len(field), len(value))
	c.lp += int64(encoder.ListpackEntrySize(field) + encoder.ListpackEntrySize(value))
	c.table += sizeClass(dictEntrySize) + sdsSize(len(field)) + sdsSize(len(value))
	return nil
}

// AddFieldWithTTL counts a field of a hash opened with BeginHashWithFieldTTL. Redis 7.4
// keeps a listpack of field, value and expiry, or a dict whose fields carry their expiry
// (about 16 bytes more each, an estimate).
func (e *Estimator) AddFieldWithTTL(field, value []byte, expireAtMS int64) error {
	if err := e.AddField(field, value); err != nil {
		return err
	}
	if e.coll.fieldTTL {
		e.coll.lp += int64(encoder.ListpackIntSize(expireAtMS))
		e.coll.table += 16
	}
	return nil
}

// AddMember counts a member of the open set.
func (e *Estimator) AddMember(member []byte) error {
	if err := e.add(record.Set); err != nil {
		return err
	}
	c := &e.coll
	if v, ok := encoder.CanonicalInt(member); ok && c.allInts {
		if c.added == 1 {
			c.lo, c.hi = v, v
		}
		c.lo, c.hi = min(c.lo, v), max(c.hi, v)
	} else {
		c.allInts = false
	}
	c.maxLen = max(c.maxLen, len(member))
	c.lp += int64(encoder.ListpackEntrySize(member))
	c.table += sizeClass(dictEntrySize) + sdsSize(len(member))
	return nil
}

// AddScoredMember counts a member of the open sorted set.
func (e *Estimator) AddScoredMember(member []byte, score float64) error {
	if err := e.add(record.ZSet); err != nil {
		return err
	}
	c := &e.coll
	c.maxLen = max(c.maxLen, len(member))
	c.lp += int64(encoder.ListpackEntrySize(member) + encoder.ListpackScoreSize(score))
	c.table += sizeClass(dictEntrySize) + sdsSize(len(member))
	c.zslNodes++
	return nil
}

// AddElement counts an element of the open list.
func (e *Estimator) AddElement(element []byte) error {
	if err := e.add(record.List); err != nil {
		return err
	}
	e.coll.list.push(element)
	return nil
}

// EndCollection prices the open collection in the encoding the server would choose.
func (e *Estimator) EndCollection() error {
	if e.err != nil {
		return e.err
	}
	c := &e.coll
	if !c.open {
		return e.fail(fmt.Errorf("%w: end with none open", encoder.ErrNoCollection))
	}
	if c.typ != record.Stream && c.added != c.declared {
		return e.fail(fmt.Errorf("write key %q: %w: declared %d, added %d", c.key, encoder.ErrMemberCount, c.declared, c.added))
	}
	c.open = false
	enc, b := e.collectionValue()
	return e.addKey(c.key, c.expireAt, c.typ, enc, b)
}

// collectionValue returns the encoding and bytes of the closed collection, robj included.
func (e *Estimator) collectionValue() (string, int64) {
	c := &e.coll
	l := &e.limits
	n := c.added
	listpack := func() int64 { return sizeClass(encoder.ListpackOverhead + c.lp) }
	dict := func() int64 { return sizeClass(dictSize) + dictTable(n) + c.table }
	robj := sizeClass(robjSize)
	switch c.typ {
	case record.Hash:
		if n <= uint64(l.HashMaxListpackEntries) && c.maxLen <= l.HashMaxListpackValue {
			return "listpack", robj + listpack()
		}
		return "hashtable", robj + dict()
	case record.Set:
		switch {
		case c.allInts && n <= uint64(l.SetMaxIntsetEntries):
			width := int64(encoder.IntsetWidth(c.lo, c.hi))
			return "intset", robj + sizeClass(intsetHeaderSize+width*int64(n))
		case e.model.listpackSets && n <= uint64(l.SetMaxListpackEntries) && c.maxLen <= l.SetMaxListpackValue:
			return "listpack", robj + listpack()
		}
		return "hashtable", robj + dict()
	case record.ZSet:
		if n <= uint64(l.ZSetMaxListpackEntries) && c.maxLen <= l.ZSetMaxListpackValue {
			return "listpack", robj + listpack()
		}
		skiplist := sizeClass(zsetSize) + sizeClass(zskiplistSize) + zslHeader + int64(c.zslNodes*zslNodeMean+0.5)
		return "skiplist", robj + dict() + skiplist
	case record.List:
		q := &c.list
		q.finish()
		if e.model.listpackLists && q.nodes == 1 && q.plain == 0 {
			return "listpack", robj + q.bytes
		}
		return "quicklist", robj + sizeClass(quicklistSize) + q.nodes*sizeClass(qlNodeSize) + q.bytes
	default: // record.Stream
		return "stream", robj + c.stream.total()
	}
}
