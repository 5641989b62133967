package memory

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// collection is what an Estimator keeps of the open collection or stream: counters enough
// to price every encoding the server might choose, decided at End.
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
	fieldTTL bool // a hash with field TTLs, on a server that has them
	list     quicklist
	stream   streamUsage
	a        *allocator
	noValue  bool // a set whose members need no dictEntry (model.noValueSets)
	// ziplist: small hashes and sorted sets are ziplists (before 7.0); prev is the last
	// entry's bytes, which the next entry's header holds.
	ziplist bool
	prev    int
	score   []byte
}

// begin opens a collection or stream: the key h opens.
func (e *Estimator) begin(h *record.Header) {
	c := &e.coll
	*c = collection{open: true, typ: h.Type, key: append(c.key[:0], h.Key...), expireAt: h.ExpireAtMS,
		declared: h.Len, allInts: true, a: e.alloc, noValue: e.model.noValueSets && h.Type == record.Set, list: quicklist{fill: e.limits.ListMaxListpackSize, a: e.alloc},
		ziplist: e.model.packOverhead == ziplistOverhead, score: c.score[:0],
		fieldTTL: e.model.fieldTTL && h.HasFieldTTLs(), stream: streamUsage{fields: c.stream.fields[:0], a: e.alloc, m: &e.model}}
}

// Add counts a member of the open collection or an entry of the open stream.
func (e *Estimator) Add(m *record.Member) error {
	if e.err != nil {
		return e.err
	}
	c := &e.coll
	if !c.open {
		return e.fail(fmt.Errorf("%w: add a member with none open", encoder.ErrNoCollection))
	}
	c.added++
	switch c.typ {
	case record.Hash:
		c.addField(m)
	case record.Set:
		c.addMember(m.Name)
	case record.ZSet:
		c.maxLen = max(c.maxLen, len(m.Name))
		if c.ziplist {
			c.score = zipScore(c.score[:0], m.Score)
			c.zip(m.Name)
			c.zip(c.score)
		} else {
			c.lp += int64(encoder.ListpackEntrySize(m.Name) + encoder.ListpackScoreSize(m.Score))
		}
		c.table += c.a.dictEntry + c.a.sds(len(m.Name))
		c.zslNodes++
	case record.List:
		c.list.push(m.Name)
	case record.Stream:
		c.stream.add(m.ID, m.Fields)
	}
	return nil
}

// addField counts a field and its value. A hash with field TTLs, from Redis 7.4, keeps a
// listpack of field, value and expiry (in a listpackEx, see collectionValue), or a dict
// whose fields carry their expiry and sit in the database's field-expiry buckets
// (fieldTTLBytes more each).
func (c *collection) addField(m *record.Member) {
	c.maxLen = max(c.maxLen, len(m.Name), len(m.Value))
	if c.ziplist {
		c.zip(m.Name)
		c.zip(m.Value)
	} else {
		c.lp += int64(encoder.ListpackEntrySize(m.Name) + encoder.ListpackEntrySize(m.Value))
	}
	c.table += c.a.dictEntry + c.a.sds(len(m.Name)) + c.a.sds(len(m.Value))
	if c.fieldTTL {
		c.lp += int64(encoder.ListpackIntSize(m.ExpireAtMS))
		c.table += fieldTTLBytes
	}
}

// zip counts an entry of a ziplist.
func (c *collection) zip(s []byte) {
	c.prev = zipEntrySize(c.prev, s)
	c.lp += int64(c.prev)
}

// addMember counts a member of a set.
func (c *collection) addMember(member []byte) {
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
	c.table += c.a.sds(len(member))
	if !c.noValue {
		c.table += c.a.dictEntry
	}
}

// End prices the open collection or stream (its groups from t) in the encoding the server
// would choose.
func (e *Estimator) End(t *record.StreamTail) error {
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
	if c.typ == record.Stream && t != nil {
		for i := range t.Groups {
			c.stream.group(&t.Groups[i])
		}
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
	a := e.alloc
	listpack := func() int64 { return a.size(e.model.packOverhead + c.lp) }
	dict := func() int64 { return a.size(e.model.dict) + a.dictTable(n) + c.table }
	robj := a.robj
	switch c.typ {
	case record.Hash:
		if n <= uint64(l.HashMaxListpackEntries) && c.maxLen <= l.HashMaxListpackValue {
			if c.fieldTTL {
				return "listpackex", robj + a.size(listpackExSize) + listpack()
			}
			return "listpack", robj + listpack()
		}
		return "hashtable", robj + dict()
	case record.Set:
		switch {
		case c.allInts && n <= uint64(l.SetMaxIntsetEntries):
			width := int64(encoder.IntsetWidth(c.lo, c.hi))
			return "intset", robj + a.size(intsetHeaderSize+width*int64(n))
		case e.model.listpackSets && n <= uint64(l.SetMaxListpackEntries) && c.maxLen <= l.SetMaxListpackValue:
			return "listpack", robj + listpack()
		}
		if c.noValue {
			return "hashtable", robj + dict() + int64(collisions(n)+0.5)*a.size(dictEntryNoValueSize)
		}
		return "hashtable", robj + dict()
	case record.ZSet:
		if n <= uint64(l.ZSetMaxListpackEntries) && c.maxLen <= l.ZSetMaxListpackValue {
			return "listpack", robj + listpack()
		}
		skiplist := a.size(zsetSize) + a.size(zskiplistSize) + a.zslHeader + int64(c.zslNodes*a.zslNodeMean+0.5)
		return "skiplist", robj + dict() + skiplist
	case record.List:
		q := &c.list
		q.finish()
		if e.model.listpackLists && q.nodes == 1 && q.plain == 0 {
			return "listpack", robj + q.bytes
		}
		return "quicklist", robj + a.size(quicklistSize) + q.nodes*a.size(qlNodeSize) + q.bytes
	default: // record.Stream
		return "stream", robj + c.stream.total()
	}
}
