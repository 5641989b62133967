package encoder

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/rdbgen/rdbgen/rdb"
)

// Consumer groups are held until End and written after the stream's metadata,
// sorted as the server writes them from its radix trees: groups and consumers by name, pending
// entries by id. A pending entry is written with its 16-byte raw id, delivery time and count;
// a consumer's pending list repeats only the ids.

// AddStreamGroup adds a consumer group to the open stream, after its entries. Every id in a
// consumer's Pending list must be in the group's, and every id of the group's in exactly one
// consumer's. The Writer keeps a copy of g.
func (w *Writer) AddStreamGroup(g *StreamGroup) error {
	if err := w.streamStep("add a consumer group"); err != nil {
		return err
	}
	c := StreamGroup{
		Name:        bytes.Clone(g.Name),
		LastID:      g.LastID,
		EntriesRead: g.EntriesRead,
		Pending:     slices.Clone(g.Pending),
		Consumers:   make([]StreamConsumer, len(g.Consumers)),
	}
	for i, cons := range g.Consumers {
		cons.Name, cons.Pending = bytes.Clone(cons.Name), slices.Clone(cons.Pending)
		c.Consumers[i] = cons
	}
	if err := checkGroup(&c); err != nil {
		return w.fail(fmt.Errorf("write key %q: group %q: %w", w.coll.key, g.Name, err))
	}
	w.strm.groups = append(w.strm.groups, c)
	return nil
}

// checkGroup sorts a group's lists as the server writes them (by id, by name) and checks that
// the server would load it.
func checkGroup(g *StreamGroup) error {
	slices.SortFunc(g.Pending, func(a, b StreamPending) int { return compareIDs(a.ID, b.ID) })
	owned := make(map[StreamID]bool, len(g.Pending))
	for i, p := range g.Pending {
		if i > 0 && g.Pending[i-1].ID == p.ID {
			return fmt.Errorf("%w: pending id %s twice", ErrStreamGroup, p.ID)
		}
		owned[p.ID] = false
	}
	slices.SortFunc(g.Consumers, func(a, b StreamConsumer) int { return bytes.Compare(a.Name, b.Name) })
	for i := range g.Consumers {
		c := &g.Consumers[i]
		if i > 0 && bytes.Equal(g.Consumers[i-1].Name, c.Name) {
			return fmt.Errorf("%w: consumer %q twice", ErrStreamGroup, c.Name)
		}
		slices.SortFunc(c.Pending, compareIDs)
		for _, id := range c.Pending {
			taken, ok := owned[id]
			if !ok {
				return fmt.Errorf("%w: consumer %q owns %s, which the group's pending list lacks", ErrStreamGroup, c.Name, id)
			}
			if taken {
				return fmt.Errorf("%w: pending id %s owned twice", ErrStreamGroup, id)
			}
			owned[id] = true
		}
	}
	for _, p := range g.Pending {
		if !owned[p.ID] {
			return fmt.Errorf("%w: pending id %s has no consumer", ErrStreamGroup, p.ID)
		}
	}
	return nil
}

// appendStreamID appends id as two lengths, ms and seq.
func appendStreamID(b []byte, id StreamID) []byte {
	return appendLength(appendLength(b, id.Ms), id.Seq)
}

// appendRawStreamID appends id as 16 big-endian bytes, as pending entries are written.
func appendRawStreamID(b []byte, id StreamID) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(b, id.Ms), id.Seq)
}

// appendMillis appends a time in Unix ms as 8 little-endian bytes (rdbSaveMillisecondTime).
func appendMillis(b []byte, ms int64) []byte {
	return binary.LittleEndian.AppendUint64(b, uint64(ms))
}

// appendStreamGroup appends a consumer group, its pending entries and consumers.
func (w *Writer) appendStreamGroup(g *StreamGroup) {
	b := w.appendString(w.buf, g.Name)
	b = appendStreamID(b, g.LastID)
	if w.has.has(rdb.StreamMetadata) {
		b = appendLength(b, uint64(g.EntriesRead))
	}
	b = appendLength(b, uint64(len(g.Pending)))
	for _, p := range g.Pending {
		b = appendRawStreamID(b, p.ID)
		b = appendMillis(b, p.DeliveryTimeMS)
		b = appendLength(b, p.DeliveryCount)
	}
	b = appendLength(b, uint64(len(g.Consumers)))
	for _, c := range g.Consumers {
		b = w.appendString(b, c.Name)
		b = appendMillis(b, c.SeenTimeMS)
		if w.has.has(rdb.ConsumerActiveTime) {
			b = appendMillis(b, c.ActiveTimeMS)
		}
		b = appendLength(b, uint64(len(c.Pending)))
		for _, id := range c.Pending {
			b = appendRawStreamID(b, id)
		}
	}
	w.buf = b
}

// compareIDs orders stream ids.
func compareIDs(a, b StreamID) int {
	if c := cmp.Compare(a.Ms, b.Ms); c != 0 {
		return c
	}
	return cmp.Compare(a.Seq, b.Seq)
}
