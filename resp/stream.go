package resp

import (
	"fmt"
	"slices"

	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// Hash field TTLs and streams, as commands.

// beginHashTTL opens a hash some of whose fields expire: each command of fields is
// followed by HPEXPIREAT for those with a TTL (Redis 7.4+).
func (c *Commands) beginHashTTL(key []byte, expireAtMS, minFieldExpireAtMS int64) error {
	if minFieldExpireAtMS != 0 && !c.o.Server.AtLeast(7, 4) {
		if c.o.DropFieldTTL {
			return c.begin(c.hashVerb(), key, expireAtMS) // a plain hash
		}
		return c.fail(c.noFieldTTL(key))
	}
	if err := c.begin(c.hashVerb(), key, expireAtMS); err != nil {
		return err
	}
	c.fieldTTL = true
	return nil
}

// noFieldTTL is the error for a field TTL on a server that has none.
func (c *Commands) noFieldTTL(key []byte) error {
	return fmt.Errorf("write key %q: hash field TTLs need Redis 7.4 or later, the server is %s: %w; keep the hashes without their field TTLs with --drop-field-ttl, or leave them out with --skip-unsupported", key, c.o.Server, ErrServerTooOld)
}

// addField adds a field to the open hash, with its expiry (0 for none).
func (c *Commands) addField(field, value []byte, expireAtMS int64) error {
	if c.o.DropFieldTTL && !c.o.Server.AtLeast(7, 4) {
		expireAtMS = 0
	}
	if expireAtMS != 0 && (!c.fieldTTL || !c.o.Server.AtLeast(7, 4)) {
		if !c.fieldTTL {
			return c.fail(fmt.Errorf("add to key %q: field %q has a TTL, and the hash declared none", c.key, field))
		}
		return c.fail(c.noFieldTTL(c.key))
	}
	if err := c.member(c.verb, len(field)+len(value)); err != nil {
		return err
	}
	c.arg(field)
	c.arg(value)
	c.ttls = append(c.ttls, expireAtMS)
	return nil
}

// fieldExpiries sends HPEXPIREAT (or HPEXPIRE) for the fields with a TTL, one command per
// run of fields that expire at the same time; last marks the record's last command.
func (c *Commands) fieldExpiries(names [][]byte, ttls []int64, last bool) error {
	type run struct{ from, to int }
	var runs []run
	for i, t := range ttls {
		switch {
		case t == 0:
		case len(runs) > 0 && runs[len(runs)-1].to == i && ttls[runs[len(runs)-1].from] == t:
			runs[len(runs)-1].to++
		default:
			runs = append(runs, run{i, i + 1})
		}
	}
	for k, r := range runs {
		if c.o.Expiry == ExpiryRelative {
			c.start("HPEXPIRE", c.key)
			c.argInt(c.left(ttls[r.from]))
		} else {
			c.start("HPEXPIREAT", c.key)
			c.argInt(ttls[r.from])
		}
		c.arg([]byte("FIELDS"))
		c.argInt(int64(r.to - r.from))
		for _, name := range names[r.from:r.to] {
			c.arg(name)
		}
		if err := c.send(c.key, last && k == len(runs)-1); err != nil {
			return err
		}
	}
	return nil
}

// streamState is the state of the open stream.
type streamState struct {
	entries  uint64          // entries added
	last     record.StreamID // the last entry's id
	meta     record.StreamMeta
	idSet    bool     // XSETID sent
	held     [][]byte // the last command made, not yet sent: the record's last one is marked
	heldBuf  []byte
	haveHeld bool

	// What commands cannot rebuild (stream_restore.go).
	ids                        idLog // the entries' ids
	payloadErr                 error // the payload writer's failure
	restore                    bool  // the stream goes as RESTORE
	lostPending, lostConsumers uint64
	consumers                  uint64 // consumers made by commands
}

// beginStream opens a stream: it sends DEL key.
func (c *Commands) beginStream(h *record.Header) error {
	if err := c.begin("XADD", h.Key, h.ExpireAtMS); err != nil {
		return err
	}
	c.verb = ""
	c.stream = &streamState{}
	c.payloadStep(func(p *rdbsink.PayloadWriter) error {
		p.Abandon()
		return p.Begin(h)
	})
	return nil
}

// sendStream holds the command built and sends the one held before, so that the
// stream's last command can be marked Last.
func (c *Commands) sendStream() error {
	s := c.stream
	if s.haveHeld {
		c.args, s.held = s.held, c.args
		c.buf, s.heldBuf = s.heldBuf, c.buf
		if err := c.send(c.key, false); err != nil {
			return err
		}
		c.args, s.held = s.held, c.args
		c.buf, s.heldBuf = s.heldBuf, c.buf
	}
	// Hold a copy of the command built: c.args and c.buf are reused by the next one.
	s.heldBuf = s.heldBuf[:0]
	s.held = s.held[:0]
	for _, a := range c.args {
		s.heldBuf = append(s.heldBuf, a...)
	}
	off := 0
	for _, a := range c.args {
		s.held = append(s.held, s.heldBuf[off:off+len(a):off+len(a)])
		off += len(a)
	}
	s.haveHeld = true
	return nil
}

// addStreamEntry sends XADD key id field value … with the entry's own id.
func (c *Commands) addStreamEntry(m *record.Member) error {
	s, id, fields := c.stream, m.ID, m.Fields
	if len(fields) == 0 || len(fields)%2 != 0 {
		return c.fail(fmt.Errorf("add to key %q: entry %s has %d fields and values, want pairs", c.key, id, len(fields)))
	}
	c.start("XADD", c.key)
	c.arg([]byte(id.String()))
	for _, f := range fields {
		c.arg(f)
	}
	s.entries++
	s.last = id
	s.ids.add(id)
	c.payloadStep(func(p *rdbsink.PayloadWriter) error { return p.Add(m) })
	return c.sendStream()
}

// setID sends XSETID with the stream's last id (and, on 7.0+, the entries added and the
// largest deleted id). A stream without entries is made first by an XADD that MAXLEN 0
// trims at once.
func (c *Commands) setID() error {
	s := c.stream
	s.idSet = true
	last := s.meta.LastID
	if last == (record.StreamID{}) {
		last = s.last
	}
	if s.entries == 0 {
		made := last
		if made == (record.StreamID{}) {
			made = record.StreamID{Seq: 1}
		}
		c.start("XADD", c.key, []byte("MAXLEN"), []byte("0"), []byte(made.String()), []byte("f"), []byte("v"))
		if err := c.sendStream(); err != nil {
			return err
		}
	}
	c.start("XSETID", c.key, []byte(last.String()))
	if c.o.Server.AtLeast(7, 0) {
		added := s.meta.EntriesAdded
		if added == 0 {
			added = max(s.meta.Length, s.entries)
		}
		c.arg([]byte("ENTRIESADDED"))
		c.argUint(added)
		c.arg([]byte("MAXDELETEDID"))
		c.arg([]byte(s.meta.MaxDeletedID.String()))
	}
	return c.sendStream()
}

// addStreamGroup sends XGROUP CREATE, XGROUP CREATECONSUMER for each consumer (6.2+),
// and XCLAIM … FORCE JUSTID for each consumer's pending entries, with their delivery
// time and count. A group that these cannot rebuild (see stream_restore.go) makes the
// stream go as RESTORE; with Options.DropLostPending, the group goes without what they
// cannot rebuild, counted.
func (c *Commands) addStreamGroup(g *record.StreamGroup) error {
	s := c.stream
	lost, lostConsumers := c.lostInGroup(g)
	s.lostPending += uint64(len(lost))
	s.lostConsumers += lostConsumers
	if len(lost) > 0 || lostConsumers > 0 {
		if !c.o.DropLostPending {
			s.restore = true
		} else {
			c.streams.LostPending += uint64(len(lost))
			c.streams.LostConsumers += lostConsumers
		}
	}
	if s.restore {
		return nil // RESTORE replaces the commands
	}
	if !s.idSet {
		if err := c.setID(); err != nil {
			return err
		}
	}
	c.start("XGROUP", []byte("CREATE"), c.key, g.Name, []byte(g.LastID.String()))
	if g.EntriesRead >= 0 && c.o.Server.AtLeast(7, 0) {
		c.arg([]byte("ENTRIESREAD"))
		c.argInt(g.EntriesRead)
	}
	if err := c.sendStream(); err != nil {
		return err
	}
	pending := make(map[record.StreamID]record.StreamPending, len(g.Pending))
	for _, p := range g.Pending {
		pending[p.ID] = p
	}
	for _, id := range lost {
		delete(pending, id)
	}
	for _, k := range g.Consumers {
		if c.o.Server.AtLeast(6, 2) {
			c.start("XGROUP", []byte("CREATECONSUMER"), c.key, g.Name, k.Name)
			if err := c.sendStream(); err != nil {
				return err
			}
		}
		if len(lost) > 0 {
			k.Pending = slices.DeleteFunc(slices.Clone(k.Pending), func(id record.StreamID) bool {
				_, found := slices.BinarySearchFunc(lost, id, compareIDs)
				return found
			})
		}
		if len(k.Pending) > 0 || c.o.Server.AtLeast(6, 2) {
			s.consumers++
		}
		for i := 0; i < len(k.Pending); {
			p, ok := pending[k.Pending[i]]
			if !ok {
				return c.fail(fmt.Errorf("add to key %q: group %q: consumer %q owns %s, which the group's pending list lacks",
					c.key, g.Name, k.Name, k.Pending[i]))
			}
			c.start("XCLAIM", c.key, g.Name, k.Name, []byte("0"))
			j := i
			for ; j < len(k.Pending) && j-i < c.o.MaxMembers; j++ {
				q, ok := pending[k.Pending[j]]
				if !ok || q.DeliveryTimeMS != p.DeliveryTimeMS || q.DeliveryCount != p.DeliveryCount {
					break
				}
				c.arg([]byte(k.Pending[j].String()))
			}
			c.arg([]byte("TIME"))
			c.argInt(p.DeliveryTimeMS)
			c.arg([]byte("RETRYCOUNT"))
			c.argUint(p.DeliveryCount)
			c.arg([]byte("FORCE"))
			c.arg([]byte("JUSTID"))
			if err := c.sendStream(); err != nil {
				return err
			}
			i = j
		}
	}
	return nil
}

// endStream takes the stream's tail t (its metadata for XSETID, its groups), then sends
// XSETID if no group did, the last command held, and the expiry.
func (c *Commands) endStream(t *record.StreamTail) error {
	s := c.stream
	if t == nil {
		t = &record.StreamTail{}
	}
	s.meta = t.Meta
	// No command sets a stream's length: one whose stored length is not its entries' count
	// (dumps of Redis 5.0 hold such streams, and Redis loads the length as stored) goes as
	// RESTORE, which carries it.
	if t.Meta.Length != 0 && t.Meta.Length != s.entries && !c.o.DropLostPending {
		s.restore = true
	}
	for i := range t.Groups {
		if err := c.addStreamGroup(&t.Groups[i]); err != nil {
			return err
		}
	}
	if s.restore {
		return c.restoreStream(t)
	}
	if c.payload != nil {
		c.payload.Abandon()
	}
	c.streams.Consumers += s.consumers
	if !s.idSet {
		if err := c.setID(); err != nil {
			return err
		}
	}
	c.stream = nil
	c.args, c.buf = s.held, s.heldBuf
	if err := c.send(c.key, c.exp == 0); err != nil {
		return err
	}
	c.args, c.buf = nil, nil
	if c.exp == 0 {
		return nil
	}
	return c.expire(c.key)
}
