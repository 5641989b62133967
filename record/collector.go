package record

import "github.com/rdbgen/rdbgen/encoder"

// A Collector is a Sink that keeps the last record written to it, whole: the inverse of
// Record.WriteTo. It copies every byte it is given, so callers may reuse their buffers. It is
// for tests, verifiers and small records; a large collection costs memory in proportion.
type Collector struct {
	// Rec is the last record written (complete once EndCollection returns).
	Rec Record
	// Functions holds the code of every function library written, in order.
	Functions [][]byte
	db        int
}

// BeginDB notes the database of the records that follow.
func (c *Collector) BeginDB(db int, _ encoder.DBInfo) error { c.db = db; return nil }

// WriteString keeps a string record.
func (c *Collector) WriteString(key, value []byte, exp int64) error {
	c.Rec = Record{DB: c.db, Key: clone(key), Type: String, Value: clone(value), ExpireAtMS: exp}
	return nil
}

func (c *Collector) begin(t Type, key []byte, n uint64, exp int64) error {
	c.Rec = Record{DB: c.db, Key: clone(key), Type: t, ExpireAtMS: exp, Members: make([]Member, 0, min(n, 1<<16))}
	return nil
}

// BeginHash starts a hash record.
func (c *Collector) BeginHash(key []byte, n uint64, exp int64) error {
	return c.begin(Hash, key, n, exp)
}

// BeginList starts a list record.
func (c *Collector) BeginList(key []byte, n uint64, exp int64) error {
	return c.begin(List, key, n, exp)
}

// BeginSet starts a set record.
func (c *Collector) BeginSet(key []byte, n uint64, exp int64) error { return c.begin(Set, key, n, exp) }

// BeginZSet starts a sorted-set record.
func (c *Collector) BeginZSet(key []byte, n uint64, exp int64) error {
	return c.begin(ZSet, key, n, exp)
}

// BeginHashWithFieldTTL starts a hash record whose fields may expire.
func (c *Collector) BeginHashWithFieldTTL(key []byte, n uint64, exp, _ int64) error {
	return c.begin(Hash, key, n, exp)
}

// AddField adds a hash field.
func (c *Collector) AddField(field, value []byte) error { return c.AddFieldWithTTL(field, value, 0) }

// AddFieldWithTTL adds a hash field with its expiry.
func (c *Collector) AddFieldWithTTL(field, value []byte, exp int64) error {
	c.Rec.Members = append(c.Rec.Members, Member{Name: clone(field), Value: clone(value), ExpireAtMS: exp})
	return nil
}

// AddElement adds a list element.
func (c *Collector) AddElement(e []byte) error {
	c.Rec.Members = append(c.Rec.Members, Member{Name: clone(e)})
	return nil
}

// AddMember adds a set member.
func (c *Collector) AddMember(m []byte) error { return c.AddElement(m) }

// AddScoredMember adds a sorted-set member.
func (c *Collector) AddScoredMember(m []byte, score float64) error {
	c.Rec.Members = append(c.Rec.Members, Member{Name: clone(m), Score: score})
	return nil
}

// BeginStream starts a stream record.
func (c *Collector) BeginStream(key []byte, exp int64) error {
	c.Rec = Record{DB: c.db, Key: clone(key), Type: Stream, ExpireAtMS: exp}
	return nil
}

// AddStreamEntry adds a stream entry.
func (c *Collector) AddStreamEntry(id StreamID, fields [][]byte) error {
	e := StreamEntry{ID: id, Fields: make([][]byte, len(fields))}
	for i, f := range fields {
		e.Fields[i] = clone(f)
	}
	c.Rec.Entries = append(c.Rec.Entries, e)
	return nil
}

// SetStreamMeta keeps the stream's metadata.
func (c *Collector) SetStreamMeta(m StreamMeta) error { c.Rec.StreamMeta = m; return nil }

// AddStreamGroup keeps a copy of a consumer group.
func (c *Collector) AddStreamGroup(g *StreamGroup) error {
	cp := *g
	cp.Name = clone(g.Name)
	cp.Pending = append([]StreamPending(nil), g.Pending...)
	cp.Consumers = make([]StreamConsumer, len(g.Consumers))
	for i, k := range g.Consumers {
		k.Name = clone(k.Name)
		k.Pending = append([]StreamID(nil), k.Pending...)
		cp.Consumers[i] = k
	}
	c.Rec.Groups = append(c.Rec.Groups, cp)
	return nil
}

// WriteFunction keeps a copy of a function library's code.
func (c *Collector) WriteFunction(code []byte) error {
	c.Functions = append(c.Functions, clone(code))
	return nil
}

// EndCollection completes the record.
func (c *Collector) EndCollection() error { return nil }

func clone(b []byte) []byte { return append([]byte{}, b...) }
