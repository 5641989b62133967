package encoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// The record.Sink calls: Begin opens a key by its type, Add and End go to the open
// collection or stream.

// Begin writes a string, or opens a collection or stream (see record.Header): the key, its
// expiry (absolute Unix ms, 0 for none) and, for a hash, list, set or sorted set, the number
// of members, which every encoding writes before them. A collection over its compact
// thresholds streams in constant memory; a smaller one is held until End. A hash with
// field TTLs (h.HasFieldTTLs) needs HashFieldTTL, and a stream Streams (see Feature): a
// file without fails with a CannotHoldError naming the key, or, with Options.DropFieldTTL,
// writes such a hash without its field TTLs. A module value (record.Module) is whole in
// its header, as a string is, and needs ModuleValues. An unknown type is an error wrapping
// record.ErrBadType.
func (w *Writer) Begin(h *record.Header) error {
	if h.Type != record.String {
		return w.begin(h)
	}
	// A string, the hot path: written here, not in a call.
	key, value, expireAtMS := h.Key, h.Value, h.ExpireAtMS
	if err := w.checkRecord(key, expireAtMS); err != nil {
		return err
	}
	if w.payload {
		w.appendRecordHeader(key, expireAtMS, typeString)
		w.buf = w.appendString(w.buf, value)
		return w.maybeFlush()
	}
	// appendRecordHeader, spelled out: the buffer stays in a local for the whole record.
	b := w.buf
	if expireAtMS > 0 {
		b = appendExpiry(b, expireAtMS)
		w.stats.Expires++
	}
	b = append(b, typeString)
	if isShort(key) && isShort(value) && cap(b)-len(b) >= 2+len(key)+len(value) {
		b = appendShort(appendShort(b, key), value)
	} else {
		b = w.appendString(w.appendString(b, key), value)
	}
	w.buf = b
	w.stats.Keys++
	return w.maybeFlush()
}

// begin opens a collection or stream.
func (w *Writer) begin(h *record.Header) error {
	switch h.Type {
	case record.Hash:
		if h.HasFieldTTLs() {
			return w.beginHashTTL(h.Key, h.Len, h.ExpireAtMS, h.MinFieldExpireAtMS)
		}
		return w.beginHash(h.Key, h.Len, h.ExpireAtMS)
	case record.List:
		return w.beginList(h.Key, h.Len, h.ExpireAtMS)
	case record.Set:
		return w.beginSet(h.Key, h.Len, h.ExpireAtMS)
	case record.ZSet:
		return w.beginZSet(h.Key, h.Len, h.ExpireAtMS)
	case record.Stream:
		return w.beginStream(h.Key, h.ExpireAtMS)
	case record.Module:
		return w.writeModule(h)
	}
	if err := w.usable(); err != nil {
		return err
	}
	return w.fail(fmt.Errorf("write key %q: %w %q", h.Key, record.ErrBadType, h.Type))
}

// Add adds a member to the open key: a hash field and its value (and, in a hash with field
// TTLs, its expiry), a list element, a set member, a sorted-set member and its score, or a
// stream entry (ids rising, from above 0-0; fields alternating name and value). Members of
// a set, hash or sorted set must be unique (see "Unique members").
func (w *Writer) Add(m *record.Member) error {
	switch w.coll.kind {
	case hashCollection:
		if m.ExpireAtMS != 0 && !w.coll.noTTL {
			return w.fail(fmt.Errorf("write key %q: field %q expires at %d: %w (the hash declared no field expiry)",
				w.coll.key, m.Name, m.ExpireAtMS, ErrFieldExpiry))
		}
		return w.addField(m.Name, m.Value)
	case listCollection:
		return w.addElement(m.Name)
	case setCollection:
		return w.addMember(m.Name)
	case zsetCollection:
		return w.addScoredMember(m.Name, m.Score)
	case hashTTLCollection:
		return w.addFieldTTL(m.Name, m.Value, m.ExpireAtMS)
	case streamCollection:
		return w.addStreamEntry(m.ID, m.Fields)
	}
	if err := w.usableRecord(); err != nil {
		return err
	}
	return w.fail(fmt.Errorf("%w: add a member with none open", ErrNoCollection))
}

// End closes the open key, writing it if it was held for a compact encoding; t is a
// stream's metadata (zero fields derived from its entries) and consumer groups, nil for
// other types. Every id in a consumer's Pending list must be in its group's, and every id
// of the group's in exactly one consumer's. End fails with ErrMemberCount when fewer
// members were added than declared.
func (w *Writer) End(t *record.StreamTail) error {
	if t != nil {
		if err := w.streamTail(t); err != nil {
			return err
		}
	}
	return w.endCollection()
}

// streamTail gives the open stream its tail.
func (w *Writer) streamTail(t *record.StreamTail) error {
	if err := w.setStreamMeta(t.Meta); err != nil {
		return err
	}
	for i := range t.Groups {
		if err := w.addStreamGroup(&t.Groups[i]); err != nil {
			return err
		}
	}
	return nil
}

// Writers and payload writers are sinks.
var (
	_ record.Sink = (*Writer)(nil)
	_ record.Sink = (*PayloadWriter)(nil)
)
