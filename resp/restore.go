package resp

import (
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// Records as RESTORE (Options.Restore). Each record is written into the payload writer
// (encoder.PayloadWriter, in the server's RDB version) and sent as one
// RESTORE key ttl payload [REPLACE] [ABSTTL]: the server loads the value as it loads it from
// a file, with no command per member, and everything a file holds comes with it (a
// stream's pending entries whose entries were deleted, its consumers' times). The members
// are kept as they come, so that a record whose payload would pass Options.MaxPayload (the
// server's proto-max-bulk-len) is sent as commands instead, the way it is without
// Options.Restore: once the members kept pass the bound, or when the finished payload does.

// restoreState is the state of Options.Restore: the open record and its members, kept.
type restoreState struct {
	open   bool          // a record is being written into the payload writer
	direct bool          // the open record went over to commands: calls pass to them
	h      record.Header // the open record's header, its key in key
	key    []byte
	kept   []keptMember
	bytes  []byte // the bytes of the members kept
	fields []span // the fields of the stream entries kept
	counts RestoreCounts
}

// A span is a run of restoreState.bytes; nil marks a nil slice.
type span struct {
	off, n int
	nil    bool
}

// A keptMember is a member kept, its bytes in restoreState.bytes.
type keptMember struct {
	name, value  span
	score        float64
	expireAtMS   int64
	id           record.StreamID
	fieldsOffset int // its fields are fields[fieldsOffset : fieldsOffset+nFields]
	nFields      int
	hasFields    bool
}

// keep appends b to the bytes kept and returns its span.
func (r *restoreState) keep(b []byte) span {
	if b == nil {
		return span{nil: true}
	}
	s := span{off: len(r.bytes), n: len(b)}
	r.bytes = append(r.bytes, b...)
	return s
}

// get returns the bytes of s.
func (r *restoreState) get(s span) []byte {
	if s.nil {
		return nil
	}
	return r.bytes[s.off : s.off+s.n : s.off+s.n]
}

// reset forgets the open record; a large one gives its memory back.
func (r *restoreState) reset() {
	r.open, r.direct = false, false
	r.kept, r.bytes, r.fields = r.kept[:0], r.bytes[:0], r.fields[:0]
	if cap(r.bytes) > 4<<20 {
		r.bytes, r.kept, r.fields = nil, nil, nil
	}
}

// restoring reports whether a call goes to the open record of Options.Restore.
func (c *Commands) restoring() bool { return c.rs.open && !c.rs.direct }

// beginRestore opens a record to be sent as RESTORE; a string or module value is sent at once.
func (c *Commands) beginRestore(h *record.Header) error {
	if h.Type == record.Module {
		return c.writeModule(h)
	}
	if h.Type.IsString() && c.o.SetStrings {
		return c.writeString(h.Key, h.Value, h.ExpireAtMS)
	}
	if h.Type == record.Hash && h.MinFieldExpireAtMS != 0 && !c.o.Server.AtLeast(7, 4) && !c.o.DropFieldTTL {
		return c.fail(c.noFieldTTL(h.Key)) // as the commands say it, before a payload is built
	}
	p, err := c.payloadWriter()
	if err != nil {
		return c.fail(fmt.Errorf("write key %q: %w", h.Key, err))
	}
	if err := p.Begin(h); err != nil {
		p.Abandon()
		return c.fail(err) // the writer's errors name the key
	}
	c.exp = h.ExpireAtMS
	if h.Type.IsString() {
		payload, err := p.Payload()
		switch {
		case errors.Is(err, encoder.ErrPayloadTooLarge):
			return c.writeString(h.Key, h.Value, h.ExpireAtMS) // the server refuses it either way, and says why
		case err != nil:
			return c.fail(fmt.Errorf("write key %q: %w", h.Key, err))
		}
		return c.sendRestore(h.Key, payload, c.o.Replace)
	}
	r := &c.rs
	r.reset()
	r.open = true
	r.key = append(r.key[:0], h.Key...)
	c.key = append(c.key[:0], h.Key...) // for the errors of a record still open
	r.h = *h
	r.h.Key = r.key
	return nil
}

// addRestore adds a member to the open record's payload, and keeps it; once the members
// kept pass the bound, the record goes over to commands.
func (c *Commands) addRestore(m *record.Member) error {
	r := &c.rs
	if err := c.payload.Add(m); err != nil {
		c.payload.Abandon()
		r.reset()
		return c.fail(fmt.Errorf("write key %q: %w", r.key, err))
	}
	k := keptMember{name: r.keep(m.Name), value: r.keep(m.Value), score: m.Score, expireAtMS: m.ExpireAtMS, id: m.ID,
		fieldsOffset: len(r.fields), nFields: len(m.Fields), hasFields: m.Fields != nil}
	for _, f := range m.Fields {
		r.fields = append(r.fields, r.keep(f))
	}
	r.kept = append(r.kept, k)
	if int64(len(r.bytes)) > c.o.MaxPayload {
		c.payload.Abandon()
		return c.toCommands()
	}
	return nil
}

// endRestore closes the open record and sends it as RESTORE, or, when its payload passes
// the bound, as commands.
func (c *Commands) endRestore(t *record.StreamTail) error {
	r := &c.rs
	err := c.payload.End(t)
	var payload []byte
	if err == nil {
		payload, err = c.payload.Payload()
	}
	switch {
	case errors.Is(err, encoder.ErrPayloadTooLarge):
		if err := c.toCommands(); err != nil {
			return err
		}
		r.reset()
		return c.End(t)
	case err != nil:
		c.payload.Abandon()
		r.reset()
		return c.fail(fmt.Errorf("write key %q: %w", r.key, err))
	}
	c.exp = r.h.ExpireAtMS
	err = c.sendRestore(r.key, payload, c.o.Replace)
	r.reset()
	return err
}

// toCommands sends the open record's header and the members kept as commands; the calls
// that follow go to them.
func (c *Commands) toCommands() error {
	r := &c.rs
	r.direct = true
	if err := c.Begin(&r.h); err != nil {
		return err
	}
	var fields [][]byte
	for i := range r.kept {
		k := &r.kept[i]
		m := record.Member{Name: r.get(k.name), Value: r.get(k.value), Score: k.score, ExpireAtMS: k.expireAtMS, ID: k.id}
		if k.hasFields {
			fields = fields[:0]
			for _, f := range r.fields[k.fieldsOffset : k.fieldsOffset+k.nFields] {
				fields = append(fields, r.get(f))
			}
			m.Fields = fields
		}
		if err := c.Add(&m); err != nil {
			return err
		}
	}
	r.counts.Fallbacks++
	r.kept, r.fields = r.kept[:0], r.fields[:0]
	return nil
}

// renameIfAbsent is the script that moves a record sent as commands under a temporary name
// onto its key, Options.Atomic's RENAME, when Options.Restore without Replace: it fails as
// RESTORE fails when the server holds the key already.
const renameIfAbsent = "if redis.call('EXISTS', KEYS[2]) == 1 then return redis.error_reply('BUSYKEY Target key name already exists.') end " +
	"return redis.call('RENAME', KEYS[1], KEYS[2])"

// failIfPresent is the script sent, under Options.Restore without Replace, for a record sent
// as commands whose expiry has passed (Options.Atomic's DEL key): the server holds no such
// key, and one it holds is BUSYKEY, as for RESTORE.
const failIfPresent = "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('BUSYKEY Target key name already exists.') end return 0"

// sendRestore sends RESTORE key ttl payload [REPLACE] [ABSTTL], the open record's last
// command, with its expiry c.exp. The payload is not copied: it stays valid until the
// payload writer's next call.
func (c *Commands) sendRestore(key, payload []byte, replace bool) error {
	c.start("RESTORE", key)
	c.argTTL()
	c.args = append(c.args, payload)
	if replace {
		c.arg([]byte("REPLACE"))
	}
	if c.exp != 0 && c.o.Expiry != ExpiryRelative {
		c.arg([]byte("ABSTTL"))
	}
	if c.o.Restore && !c.atomic.open {
		// A record of one command is whole as it is; and one whose expiry has passed stays
		// RESTORE, not Options.Atomic's DEL key, which would delete a key the server holds
		// without REPLACE: the server does not create it, and says BUSYKEY for a key it holds.
		c.cmd = Command{Args: c.args, Key: key, DB: c.db, Last: true, Expires: c.exp != 0, ExpireAtMS: c.exp}
		return c.emitCmd()
	}
	return c.send(key, true)
}

// RestoreCounts counts the records of Options.Restore.
type RestoreCounts struct {
	// Fallbacks counts the records sent as commands, since their payloads would pass
	// Options.MaxPayload.
	Fallbacks uint64 `json:"fallbacks,omitempty"`
}

// RestoreCounts returns the counts of Options.Restore so far.
func (c *Commands) RestoreCounts() RestoreCounts { return c.rs.counts }
