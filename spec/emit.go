package spec

import (
	"context"
	"errors"
	"fmt"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/rdbgen/rdbgen/internal/draw"
	"github.com/rdbgen/rdbgen/record"
)

// Members of sets and sorted sets, and the fields of generated hashes, must be distinct.
// Members from of_family, sequence, or a concat of literals around one of those, are
// distinct by construction and stream in constant memory. Other generators may repeat
// themselves: the emitter then remembers the members of the record being written and draws
// again for a repeat, up to drawsPerMember times the member count, after which the record
// fails with ErrTooFewDistinct. The members of one record depend on (seed, family, record)
// only, so a verifier gets the same ones.

// ErrTooFewDistinct is returned when a generator cannot fill a collection with distinct members.
var ErrTooFewDistinct = errors.New("too few distinct members")

// drawsPerMember bounds the draws made to find distinct members.
const drawsPerMember = 16

// ErrNoBaseTime is returned when a spec with TTLs or relative timestamps has no base time.
var ErrNoBaseTime = errors.New("spec: ttls and relative timestamps need Params.BaseTimeMS")

// checkEvery is how many records pass between checks for cancellation.
const checkEvery = 1 << 14

// An emitter writes the records of families into a Sink. It is not safe for concurrent use.
type emitter struct {
	sink  record.Sink
	rnd   source
	faker *gofakeit.Faker
	ctx   evalCtx
	key   []byte
	buf   []byte
	name  []byte
	seen  map[string]struct{}
	ends  []int    // streams: the end of each field's value in buf
	entry [][]byte // streams: an entry's fields and values
	hdr   record.Header
	mem   record.Member
	tail  record.StreamTail
	// done stops a record's members when it is cancelled (checked every cancelEvery).
	done context.Context
	// maxMembers, when not 0, cuts collections to that many members (for Estimate).
	maxMembers uint64
}

// cancelEvery is how many members of one collection pass between cancellation checks.
const cancelEvery = 1 << 16

func newEmitter(sink record.Sink) *emitter {
	e := &emitter{sink: sink, done: context.Background()}
	e.faker = gofakeit.NewFaker(&e.rnd, false)
	e.ctx = evalCtx{rnd: &e.rnd, faker: e.faker}
	return e
}

// WriteTo writes every record of s into sink: the databases in ascending order, each
// opened once with its key counts, and in each the families in file order. It stops with
// ctx's error when ctx is cancelled.
func (s *Spec) WriteTo(ctx context.Context, sink record.Sink) error {
	for _, f := range s.Families {
		if (f.TTL > 0 || f.relativeTime || f.fieldTTL) && s.Params.BaseTimeMS <= 0 {
			return fmt.Errorf("family %s: %w", f.Name, ErrNoBaseTime)
		}
	}
	e := newEmitter(sink)
	e.done = ctx
	dbs, by := s.DBs()
	var done uint64
	for _, db := range dbs {
		var info record.Counts
		for _, f := range by[db] {
			info.Keys += f.count
			info.Expires += f.Expires()
		}
		if info.Keys == 0 {
			continue
		}
		if err := sink.BeginDB(db, info); err != nil {
			return err
		}
		for _, f := range by[db] {
			for i := range f.count {
				if err := e.write(f, i); err != nil {
					return err
				}
				if done++; done%checkEvery == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
			}
		}
	}
	return ctx.Err()
}

// Record returns record i of the family (i below Keys()), as a verifier compares it with a
// server. It allocates; WriteTo streams.
func (f *Family) Record(i uint64) (record.Record, error) {
	var c record.Collector
	if err := newEmitter(&c).write(f, i); err != nil {
		return record.Record{}, err
	}
	c.Rec.DB = f.DB
	return c.Rec, nil
}

// ExpireAtMS returns the absolute expiry of record i in Unix ms, or 0 for none.
func (f *Family) ExpireAtMS(i uint64) int64 {
	return draw.ExpireAtMS(f.base, f.TTL, f.TTLJitter, f.seed^saltTTL, i)
}

// memberCount returns the number of members of record i.
func (f *Family) memberCount(i uint64) uint64 {
	return draw.Between(f.members.min, f.members.max, f.seed^saltCount, i)
}

// eval appends the value of g for record i, member j, seeded by salt.
func (e *emitter) eval(dst []byte, g generator, f *Family, salt, i, j uint64, member bool) []byte {
	e.rnd.state = draw.Mix(draw.Mix(f.seed^salt, i), j)
	e.ctx.f, e.ctx.i, e.ctx.j, e.ctx.member = f, i, j, member
	return g.appendTo(dst, &e.ctx)
}

// write writes record i of f.
func (e *emitter) write(f *Family, i uint64) error {
	e.key = f.AppendKey(e.key[:0], i)
	exp := f.ExpireAtMS(i)
	if f.Type == record.String {
		e.buf = e.eval(e.buf[:0], f.value, f, saltField^hashString("value"), i, 0, false)
		return e.begin(record.Header{Key: e.key, Type: record.String, Value: e.buf, ExpireAtMS: exp})
	}
	if f.Type == record.Stream {
		return e.writeStream(f, i, exp)
	}
	var err error
	if f.fieldTTL {
		return e.writeFieldTTLs(f, i, exp)
	}
	if f.fields != nil {
		if err = e.begin(record.Header{Key: e.key, Type: record.Hash, Len: uint64(len(f.fields)), ExpireAtMS: exp}); err != nil {
			return err
		}
		for k := range f.fields {
			fd := &f.fields[k]
			e.buf = e.eval(e.buf[:0], fd.gen, f, saltField^hashString(string(fd.name)), i, 0, false)
			e.mem.Name, e.mem.Value = fd.name, e.buf
			if err = e.sink.Add(&e.mem); err != nil {
				return err
			}
		}
		return e.sink.End(nil)
	}
	n := f.memberCount(i)
	if e.maxMembers > 0 {
		n = min(n, e.maxMembers)
	}
	if err = e.begin(record.Header{Key: e.key, Type: f.Type, Len: n, ExpireAtMS: exp}); err != nil {
		return err
	}
	if err := e.writeMembers(f, i, n); err != nil {
		return err
	}
	return e.sink.End(nil)
}

// begin opens the key h in the sink; h is kept in e, and the member the key's Adds pass is
// cleared.
func (e *emitter) begin(h record.Header) error {
	e.hdr, e.mem = h, record.Member{}
	return e.sink.Begin(&e.hdr)
}

// writeMembers adds the n members of record i.
func (e *emitter) writeMembers(f *Family, i, n uint64) error {
	m := f.members
	naming := m.value // what names a member: must be distinct except in lists
	if f.Type == record.Hash {
		naming = m.field
	}
	distinct := f.Type != record.List && m.of == nil && !naming.unique()
	if distinct {
		if e.seen == nil || len(e.seen) > 1<<12 {
			e.seen = make(map[string]struct{})
		} else {
			clear(e.seen)
		}
	}
	draw := uint64(0)
	for j := uint64(0); j < n; j++ {
		if j%cancelEvery == cancelEvery-1 {
			if err := e.done.Err(); err != nil {
				return err
			}
		}
		// The member's name.
		for {
			if m.of != nil {
				e.name = m.of.appendID(e.name[:0], j)
				break
			}
			e.name = e.eval(e.name[:0], naming, f, saltMember, i, draw, true)
			draw++
			if !distinct {
				break
			}
			if _, dup := e.seen[string(e.name)]; !dup {
				e.seen[string(e.name)] = struct{}{}
				break
			}
			if draw >= n*drawsPerMember+64 {
				return fmt.Errorf("family %s, key %q: %w: %d of %d after %d draws; use a generator with more values, or sequence or uuid",
					f.Name, e.key, ErrTooFewDistinct, j, n, draw)
			}
		}
		var err error
		mem := &e.mem
		mem.Name = e.name
		switch f.Type {
		case record.Hash:
			e.buf = e.eval(e.buf[:0], m.value, f, saltField, i, j, true)
			mem.Value = e.buf
		case record.ZSet:
			mem.Score = float64(j + 1)
			if m.score != nil {
				e.buf = e.eval(e.buf[:0], m.score, f, saltScore, i, j, true)
				if mem.Score, err = parseScore(e.buf); err != nil {
					err = fmt.Errorf("family %s, key %q: score %q is not a number", f.Name, e.key, e.buf)
				}
			}
		}
		if err == nil {
			err = e.sink.Add(mem)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeStream writes stream record i of f: its entries, entry j with the id
// (base time + j + 1)-0 and the family's fields, their values drawn for (i, j).
func (e *emitter) writeStream(f *Family, i uint64, exp int64) error {
	if err := e.begin(record.Header{Key: e.key, Type: record.Stream, ExpireAtMS: exp}); err != nil {
		return err
	}
	n := f.memberCount(i)
	if e.maxMembers > 0 {
		n = min(n, e.maxMembers)
	}
	for j := range n {
		if j%cancelEvery == cancelEvery-1 {
			if err := e.done.Err(); err != nil {
				return err
			}
		}
		e.buf, e.ends = e.buf[:0], e.ends[:0]
		for k := range f.fields {
			fd := &f.fields[k]
			e.buf = e.eval(e.buf, fd.gen, f, saltField^hashString(string(fd.name)), i, j, true)
			e.ends = append(e.ends, len(e.buf))
		}
		e.entry = e.entry[:0]
		start := 0
		for k, end := range e.ends {
			e.entry = append(e.entry, f.fields[k].name, e.buf[start:end])
			start = end
		}
		e.mem.ID, e.mem.Fields = f.streamID(j), e.entry
		if err := e.sink.Add(&e.mem); err != nil {
			return err
		}
	}
	t := &e.tail
	clear(t.Groups)
	t.Groups = t.Groups[:0]
	for k := range f.groups {
		t.Groups = append(t.Groups, f.streamGroup(&f.groups[k], n))
	}
	return e.sink.End(t)
}

// streamID returns the id of entry j of a stream: (base time + j + 1)-0.
func (f *Family) streamID(j uint64) record.StreamID {
	return record.StreamID{Ms: uint64(max(f.base, 0)) + j + 1}
}

// streamGroup returns group g of a stream of n entries (see streamGroup): entries are
// delivered a millisecond after they were added, and consumers were last seen then.
func (f *Family) streamGroup(g *streamGroup, n uint64) record.StreamGroup {
	delivered := uint64(g.delivered * float64(n))
	pending := uint64(g.pending * float64(delivered))
	out := record.StreamGroup{Name: []byte(g.name), EntriesRead: int64(delivered),
		Consumers: make([]record.StreamConsumer, g.consumers)}
	if delivered > 0 {
		out.LastID = f.streamID(delivered - 1)
	}
	seen := int64(max(out.LastID.Ms, uint64(max(f.base, 0)))) + 1
	for c := range out.Consumers {
		out.Consumers[c] = record.StreamConsumer{Name: fmt.Appendf(nil, "%s-%d", g.name, c+1), SeenTimeMS: seen, ActiveTimeMS: seen}
	}
	for j := delivered - pending; j < delivered; j++ {
		id := f.streamID(j)
		out.Pending = append(out.Pending, record.StreamPending{ID: id, DeliveryTimeMS: int64(id.Ms) + 1, DeliveryCount: 1})
		c := &out.Consumers[j%g.consumers]
		c.Pending = append(c.Pending, id)
	}
	return out
}

// fieldExpireAtMS returns the expiry of named field fd of record i: 0 without a field_ttl.
func (f *Family) fieldExpireAtMS(fd *field, i uint64) int64 {
	if fd.ttl == 0 {
		return 0
	}
	return draw.ExpireAtMS(f.base, fd.ttl, fd.jitter, f.seed^saltTTL^hashString(string(fd.name)), i)
}

// writeFieldTTLs writes record i of a hash family some of whose fields expire.
func (e *emitter) writeFieldTTLs(f *Family, i uint64, exp int64) error {
	var least int64
	for k := range f.fields {
		if at := f.fieldExpireAtMS(&f.fields[k], i); at != 0 && (least == 0 || at < least) {
			least = at
		}
	}
	h := record.Header{Key: e.key, Type: record.Hash, Len: uint64(len(f.fields)), ExpireAtMS: exp, MinFieldExpireAtMS: least, FieldTTLs: true}
	if err := e.begin(h); err != nil {
		return err
	}
	for k := range f.fields {
		fd := &f.fields[k]
		e.buf = e.eval(e.buf[:0], fd.gen, f, saltField^hashString(string(fd.name)), i, 0, false)
		e.mem.Name, e.mem.Value, e.mem.ExpireAtMS = fd.name, e.buf, f.fieldExpireAtMS(fd, i)
		if err := e.sink.Add(&e.mem); err != nil {
			return err
		}
	}
	return e.sink.End(nil)
}
