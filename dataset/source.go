package dataset

import (
	"context"
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// checkEvery is how many records and members pass between checks for cancellation.
const checkEvery = 1 << 16

// The dataset is a record.Source that can list its keys and knows its size.
var _ interface {
	record.KeyLister
	record.Sizer
} = (*Spec)(nil)

// Len returns the number of records, Count.
func (d *Spec) Len() uint64 { return d.Count }

// WriteTo writes every record of the dataset into sink, in db DB opened with its exact
// counts. It stops with ctx's error when ctx is cancelled.
func (d *Spec) WriteTo(ctx context.Context, sink record.Sink) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if d.Count == 0 {
		return nil
	}
	if err := sink.BeginDB(d.DB, encoder.DBInfo{Keys: d.Count, Expires: d.Expires()}); err != nil {
		return err
	}
	g := writer{ctx: ctx, d: d, sink: sink}
	c := d.Cursor()
	for c.Next() {
		var err error
		if d.Type.IsString() {
			err = sink.WriteString(c.Key(), c.Value(), c.ExpireAtMS())
		} else if d.Type == TypeStream {
			err = g.stream(c.Index(), c.Key(), c.ExpireAtMS())
		} else {
			err = g.collection(c.Index(), c.Key(), c.ExpireAtMS())
		}
		if err == nil {
			err = g.tick()
		}
		if err != nil {
			if errors.Is(err, ctx.Err()) {
				return err
			}
			return fmt.Errorf("write key %q: %w", c.Key(), err)
		}
	}
	return ctx.Err()
}

// ListKeys calls fn with every key, without computing values.
func (d *Spec) ListKeys(ctx context.Context, fn func(db int, key []byte, expires bool)) error {
	keysOnly := *d
	keysOnly.Value, keysOnly.ValueSize = ValueSame, 0
	expires := d.TTL > 0
	c := keysOnly.Cursor()
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
	d     *Spec
	sink  record.Sink
	ticks int
	name  []byte // scratch for member names
	value []byte // scratch for hash values
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
	var err error
	switch d.Type {
	case TypeHash:
		err = s.BeginHash(key, n, expireAtMS)
	case TypeList:
		err = s.BeginList(key, n, expireAtMS)
	case TypeSet:
		err = s.BeginSet(key, n, expireAtMS)
	case TypeZSet:
		err = s.BeginZSet(key, n, expireAtMS)
	default:
		err = fmt.Errorf("%w %q", record.ErrBadType, d.Type)
	}
	for j := uint64(0); j < n && err == nil; j++ {
		g.name = d.AppendMember(g.name[:0], i, j)
		switch d.Type {
		case TypeHash:
			g.value = d.AppendFieldValue(g.value[:0], i, j)
			err = s.AddField(g.name, g.value)
		case TypeList:
			err = s.AddElement(g.name)
		case TypeSet:
			err = s.AddMember(g.name)
		case TypeZSet:
			err = s.AddScoredMember(g.name, d.Score(i, j, n))
		}
		if err == nil {
			err = g.tick()
		}
	}
	if err != nil {
		return err
	}
	return s.EndCollection()
}

// stream writes stream record i: its entries, each one field.
func (g *writer) stream(i uint64, key []byte, expireAtMS int64) error {
	d, s := g.d, g.sink
	if err := s.BeginStream(key, expireAtMS); err != nil {
		return err
	}
	fields := [][]byte{[]byte(StreamField), nil}
	for j := range d.MemberCount(i) {
		g.value = d.AppendStreamValue(g.value[:0], i, j)
		fields[1] = g.value
		if err := s.AddStreamEntry(d.StreamEntryID(j), fields); err != nil {
			return err
		}
		if err := g.tick(); err != nil {
			return err
		}
	}
	return s.EndCollection()
}
