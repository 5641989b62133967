package filter

import "github.com/rdbgen/rdbgen/record"

// A fieldDropper is the stage of a Filter with DropExpiredFields, behind its Gate: it sees
// the keys the Gate keeps, opens their database in the sink, and drops the hash fields whose
// expiry is at or before Now. A hash one of whose fields may have expired (its smallest
// field expiry is at or before Now) is held until it ends, since the sink needs the count of
// the fields left first; it is passed on with them, or dropped when none is left.
type fieldDropper struct {
	record.Pass
	f       *Filter
	holding bool // the open hash's live fields are held until it ends
	held    heldHash
	h       record.Header // the header of the hash held, passed on at its end
	expired uint64        // fields dropped
	emptied uint64        // hashes dropped with no field left
}

// Begin passes the key on, or starts holding a hash that may have expired fields.
func (d *fieldDropper) Begin(h *record.Header) error {
	if h.MinFieldExpireAtMS != 0 && h.MinFieldExpireAtMS <= d.f.nowMS {
		d.holding = true
		d.held.start(h.Key, h.ExpireAtMS)
		return nil
	}
	if err := d.f.open(); err != nil {
		return err
	}
	return d.Next.Begin(h)
}

// Add drops an expired field, holds the field of a hash held, and passes any other member
// on.
func (d *fieldDropper) Add(m *record.Member) error {
	switch {
	case m.ExpireAtMS != 0 && m.ExpireAtMS <= d.f.nowMS:
		d.expired++
		return nil
	case d.holding:
		return d.held.add(m.Name, m.Value, m.ExpireAtMS)
	}
	return d.Next.Add(m)
}

// End closes the key; a hash held is passed on with the fields that live on, or dropped
// when none does.
func (d *fieldDropper) End(t *record.StreamTail) error {
	if !d.holding {
		return d.Next.End(t)
	}
	d.holding = false
	held := &d.held
	if held.n == 0 {
		held.release()
		d.emptied++
		return nil
	}
	if err := d.f.open(); err != nil {
		held.release()
		return err
	}
	// Marked FieldTTLs: a hash whose fields left have no expiry keeps its encoding.
	d.h = record.Header{Key: held.key, Type: record.Hash, Len: held.n, ExpireAtMS: held.exp, MinFieldExpireAtMS: held.minField, FieldTTLs: true}
	if err := d.Next.Begin(&d.h); err != nil {
		held.release()
		return err
	}
	if err := held.replay(d.Next); err != nil {
		return err
	}
	return d.Next.End(nil)
}
