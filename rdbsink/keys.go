package rdbsink

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// kind is the type of the open key, as the dispatch of Add needs it.
type kind uint8

const (
	none kind = iota
	hashKey
	listKey
	setKey
	zsetKey
	streamKey
)

// keys maps the Sink calls onto the per-key calls of an encoder.Writer: the dispatch on
// the type, shared by Writer and PayloadWriter.
type keys struct {
	w     *encoder.Writer
	caps  rdb.Capabilities
	open  kind
	group encoder.StreamGroup // scratch: the group End converts
	ids   []encoder.StreamID  // scratch: its consumers' pending ids
}

func newKeys(w *encoder.Writer) keys { return keys{w: w, caps: w.Capabilities()} }

// begin opens a key that is not a string.
func (k *keys) begin(h *record.Header) error {
	w := k.w
	var err error
	switch h.Type {
	case record.Hash:
		k.open = hashKey
		if h.HasFieldTTLs() {
			err = w.BeginHashTTL(h.Key, h.Len, h.ExpireAtMS, h.MinFieldExpireAtMS)
		} else {
			err = w.BeginHash(h.Key, h.Len, h.ExpireAtMS)
		}
	case record.List:
		k.open = listKey
		err = w.BeginList(h.Key, h.Len, h.ExpireAtMS)
	case record.Set:
		k.open = setKey
		err = w.BeginSet(h.Key, h.Len, h.ExpireAtMS)
	case record.ZSet:
		k.open = zsetKey
		if h.DoubleScores {
			err = w.BeginSkiplistZSet(h.Key, h.Len, h.ExpireAtMS)
		} else {
			err = w.BeginZSet(h.Key, h.Len, h.ExpireAtMS)
		}
	case record.Stream:
		k.open = streamKey
		err = w.BeginStream(h.Key, h.ExpireAtMS)
	case record.Module:
		err = w.WriteModule(h.Key, h.ModuleID, h.Value, h.ExpireAtMS)
	case record.String, "":
		err = w.WriteString(h.Key, h.Value, h.ExpireAtMS)
	default:
		err = w.Fail(fmt.Errorf("write key %q: %w %q", h.Key, record.ErrBadType, h.Type))
	}
	return mapErr(err)
}

// add adds a member to the open key.
func (k *keys) add(m *record.Member) error {
	w := k.w
	var err error
	switch k.open {
	case hashKey:
		err = w.AddField(m.Name, m.Value, m.ExpireAtMS)
	case listKey:
		err = w.AddElement(m.Name)
	case setKey:
		err = w.AddMember(m.Name)
	case zsetKey:
		err = w.AddScoredMember(m.Name, m.Score)
	case streamKey:
		err = w.AddStreamEntry(encoder.StreamID(m.ID), m.Fields)
	default:
		err = w.Fail(fmt.Errorf("%w: add a member with none open", encoder.ErrNoCollection))
	}
	return mapErr(err)
}

// end closes the open key, giving a stream its tail.
func (k *keys) end(t *record.StreamTail) error {
	k.open = none
	w := k.w
	if t != nil {
		if err := w.SetStreamMeta(streamMeta(&t.Meta)); err != nil {
			return mapErr(err)
		}
		for i := range t.Groups {
			if err := w.AddStreamGroup(k.convert(&t.Groups[i])); err != nil {
				return mapErr(err)
			}
		}
	}
	return mapErr(w.End())
}

// streamMeta converts a stream's metadata.
func streamMeta(m *record.StreamMeta) encoder.StreamMeta {
	return encoder.StreamMeta{
		Length:       m.Length,
		LastID:       encoder.StreamID(m.LastID),
		FirstID:      encoder.StreamID(m.FirstID),
		MaxDeletedID: encoder.StreamID(m.MaxDeletedID),
		EntriesAdded: m.EntriesAdded,
	}
}

// convert converts a consumer group into k's scratch group, valid until the next call (the
// writer keeps a copy).
func (k *keys) convert(g *record.StreamGroup) *encoder.StreamGroup {
	c := &k.group
	c.Name, c.LastID, c.EntriesRead = g.Name, encoder.StreamID(g.LastID), g.EntriesRead
	c.Pending = c.Pending[:0]
	for _, p := range g.Pending {
		c.Pending = append(c.Pending, encoder.StreamPending{ID: encoder.StreamID(p.ID), DeliveryTimeMS: p.DeliveryTimeMS, DeliveryCount: p.DeliveryCount})
	}
	c.Consumers = c.Consumers[:0]
	k.ids = k.ids[:0]
	for _, cons := range g.Consumers {
		at := len(k.ids)
		for _, id := range cons.Pending {
			k.ids = append(k.ids, encoder.StreamID(id))
		}
		c.Consumers = append(c.Consumers, encoder.StreamConsumer{
			Name: cons.Name, SeenTimeMS: cons.SeenTimeMS, ActiveTimeMS: cons.ActiveTimeMS,
			Pending: k.ids[at:len(k.ids):len(k.ids)],
		})
	}
	return c
}

// writeFunction writes a function library whose first line names it.
func (k *keys) writeFunction(code []byte) error {
	if !k.caps.Can(rdb.Functions) {
		return k.w.Fail(fmt.Errorf("%s: %w", record.LibraryLabel(code), k.caps.Refuse(rdb.Functions)))
	}
	if _, err := record.LibraryName(code); err != nil {
		return k.w.Fail(fmt.Errorf("%s: %w", record.LibraryLabel(code), err))
	}
	return mapErr(k.w.WriteFunction(code))
}

// writeModuleAux writes a module's AUX data.
func (k *keys) writeModuleAux(a *record.ModuleAux) error {
	if !k.caps.Can(rdb.ModuleAux) {
		return k.w.Fail(fmt.Errorf("%s: %w", a.Label(), k.caps.Refuse(rdb.ModuleAux)))
	}
	return mapErr(k.w.WriteModuleAux(a.ModuleID, a.When, a.Value))
}

// sentinels pairs the writer's errors with the record ones of the same idea.
var sentinels = [...]struct{ enc, rec error }{
	{encoder.ErrDuplicateKey, record.ErrDuplicateKey},
	{encoder.ErrDuplicateMember, record.ErrDuplicateMember},
	{encoder.ErrEmpty, record.ErrEmpty},
	{encoder.ErrNaNScore, record.ErrNaNScore},
	{encoder.ErrModuleValue, record.ErrModuleValue},
}

// mapErr returns err, or, when it wraps one of the writer's sentinels that has a record
// twin, an Error that wraps both.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	for _, s := range sentinels {
		if errors.Is(err, s.enc) {
			return &Error{Err: err, Record: s.rec, from: s.enc}
		}
	}
	return err
}

// An Error is an error of the writer that has a twin in package record: errors.Is finds
// both, and its message names the record one, as every other sink's does.
type Error struct {
	Err    error // the writer's error
	Record error // the record sentinel it stands for
	from   error // the writer's sentinel Err wraps
}

// Error returns Err's message, naming the record sentinel instead of the writer's.
func (e *Error) Error() string {
	return strings.Replace(e.Err.Error(), e.from.Error(), e.Record.Error(), 1)
}

// Unwrap returns Err and Record.
func (e *Error) Unwrap() []error { return []error{e.Err, e.Record} }
