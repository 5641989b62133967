package dataset

import (
	"context"
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// checkEvery is how many records and members pass between checks for cancellation.
const checkEvery = 1 << 16

// The dataset is a record.Source that can list its keys and knows its size.
var _ interface {
	record.KeyLister
	record.Sizer
} = (*Config)(nil)

// Len returns the number of records, Count.
func (d *Config) Len() uint64 { return d.Count }

// WriteTo writes every record of the dataset into sink, in db DB opened with its exact
// counts. It stops with ctx's error when ctx is cancelled.
func (d *Config) WriteTo(ctx context.Context, sink record.Sink) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if d.Count == 0 {
		return nil
	}
	if err := sink.BeginDB(d.DB, record.Counts{Keys: d.Count, Expires: d.Expires()}); err != nil {
		return err
	}
	// The header, member and tail are allocated once, apart: g itself stays on the stack.
	g := writer{ctx: ctx, d: d, sink: sink, hdr: new(record.Header), mem: new(record.Member), tail: new(record.StreamTail)}
	if f, ok := sink.(record.KeyFilter); ok {
		g.wants = f.Wants
	}
	if d.Type.IsString() {
		return g.strings()
	}
	c := d.Cursor()
	for c.Next() {
		// The sink names the key in its errors: they are returned as they are.
		var err error
		switch {
		case g.wants != nil && !g.wants(c.Key()):
		case d.Type == record.Stream:
			err = g.stream(c.Index(), c.Key(), c.ExpireAtMS())
		default:
			err = g.collection(c.Index(), c.Key(), c.ExpireAtMS())
		}
		if err == nil {
			err = g.tick()
		}
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// strings writes the records of a string dataset: the loop of WriteTo with the record type,
// whether keys expire and the cancellation count decided outside it, the generator's hot path.
// A sink that takes a string without a Header (a StringWriter, as rdbsink.Writer is) gets
// each key through WriteString.
func (g *writer) strings() error {
	c, expires := g.d.Cursor(), g.d.TTL > 0
	h := g.hdr
	*h = record.Header{Type: record.String}
	sw, direct := g.sink.(StringWriter)
	for c.Next() {
		if g.wants == nil || g.wants(c.Key()) {
			var at int64
			if expires {
				at = c.ExpireAtMS()
			}
			var err error
			if direct {
				err = sw.WriteString(c.Key(), c.Value(), at)
			} else {
				h.Key, h.Value, h.ExpireAtMS = c.Key(), c.Value(), at
				err = g.sink.Begin(h)
			}
			if err != nil {
				return err
			}
		}
		if c.Index()%checkEvery == checkEvery-1 {
			if err := g.ctx.Err(); err != nil {
				return err
			}
		}
	}
	return g.ctx.Err()
}

// A StringWriter is a record.Sink that also takes a string key without a Header: what
// Begin does with a Header of type String, WriteString does with the key, value and expiry
// (absolute Unix ms, 0 for none) alone. A string dataset writes through it, when its sink
// has it, to spare the header on its hot path.
type StringWriter interface {
	record.Sink
	WriteString(key, value []byte, expireAtMS int64) error
}

// ListKeys calls fn with every key, without computing values.
func (d *Config) ListKeys(ctx context.Context, fn func(db int, key []byte, expires bool)) error {
	return d.ListKeysPart(ctx, 0, 1, fn)
}

// ListKeysPart calls fn with the keys of part part of parts (0 <= part < parts), a
// contiguous share of the records, without computing values. The parts may be listed
// concurrently; together they list every key once.
func (d *Config) ListKeysPart(ctx context.Context, part, parts int, fn func(db int, key []byte, expires bool)) error {
	if part < 0 || parts < 1 || part >= parts {
		return fmt.Errorf("list keys: part %d of %d", part, parts)
	}
	lo, hi := d.Count*uint64(part)/uint64(parts), d.Count*uint64(part+1)/uint64(parts)
	// Record lo+j of d is record j of keys: the same key, with no value to draw.
	keys := *d
	keys.KeyStart, keys.Count = d.KeyStart+lo, hi-lo
	keys.Value, keys.ValueSize = ValueSame, 0
	expires := d.TTL > 0
	c := keys.Cursor()
	for c.Next() {
		fn(d.DB, c.Key(), expires)
		if c.Index()%checkEvery == checkEvery-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// writer holds the state of one WriteTo.
type writer struct {
	ctx   context.Context
	d     *Config
	sink  record.Sink
	ticks int
	name  []byte // scratch for member names
	value []byte // scratch for hash values
	hdr   *record.Header
	mem   *record.Member
	tail  *record.StreamTail // a stream's: zero, its metadata derived
	// wants, when not nil, is the sink's record.KeyFilter: the records of keys it refuses
	// are left out, their values and members not computed.
	wants func(key []byte) bool
}

// tick counts a record or member, and every checkEvery of them checks for cancellation.
func (g *writer) tick() error {
	g.ticks++
	if g.ticks < checkEvery {
		return nil
	}
	g.ticks = 0
	return g.ctx.Err()
}

// collection writes collection record i.
func (g *writer) collection(i uint64, key []byte, expireAtMS int64) error {
	d, s := g.d, g.sink
	n := d.MemberCount(i)
	*g.hdr = record.Header{Key: key, Type: d.Type, Len: n, ExpireAtMS: expireAtMS}
	err := s.Begin(g.hdr)
	m := g.mem
	*m = record.Member{}
	for j := uint64(0); j < n && err == nil; j++ {
		g.name = d.AppendMember(g.name[:0], i, j)
		m.Name = g.name
		switch d.Type {
		case record.Hash:
			g.value = d.AppendFieldValue(g.value[:0], i, j)
			m.Value = g.value
		case record.ZSet:
			m.Score = d.Score(i, j, n)
		}
		if err = s.Add(m); err == nil {
			err = g.tick()
		}
	}
	if err != nil {
		return err
	}
	return s.End(nil)
}

// stream writes stream record i: its entries, each one field.
func (g *writer) stream(i uint64, key []byte, expireAtMS int64) error {
	d, s := g.d, g.sink
	*g.hdr = record.Header{Key: key, Type: record.Stream, ExpireAtMS: expireAtMS}
	if err := s.Begin(g.hdr); err != nil {
		return err
	}
	fields := [][]byte{[]byte(StreamField), nil}
	m := g.mem
	*m = record.Member{Fields: fields}
	for j := range d.MemberCount(i) {
		g.value = d.AppendStreamValue(g.value[:0], i, j)
		fields[1] = g.value
		m.ID = d.StreamEntryID(j)
		if err := s.Add(m); err != nil {
			return err
		}
		if err := g.tick(); err != nil {
			return err
		}
	}
	*g.tail = record.StreamTail{}
	return s.End(g.tail)
}
