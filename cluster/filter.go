package cluster

import (
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A Filter is a record.KeyFilter that passes on to another sink the records whose keys some
// shards of a layout own, and drops the others, members and all: what one process of a split
// that many processes share writes or loads (a pod of a Kubernetes Indexed Job, each with its
// own shard). Each key's slot is computed once, as the Writer computes it, so a key costs
// its hash and the records kept cost what they cost without a Filter. Every BeginDB is
// passed on, with the counts of the whole database.
//
// A Writer behind a Filter writes the files of the shards kept byte for byte as it writes
// them when every record comes: give the others Discard as their destination.
type Filter struct {
	next  record.Sink
	kept  *[Slots]bool // the slots of the shards kept
	slots slotter
	skip  bool // the open record is dropped
	// Kept and Dropped count the keys passed on and dropped.
	Kept, Dropped uint64
}

// NewFilter returns a Filter that passes on to next the records of the given shards of
// layout. A shard out of range is an error wrapping ErrLayout that names the shards.
func NewFilter(next record.Sink, layout *Layout, shards ...int) (*Filter, error) {
	f := &Filter{next: next, kept: new([Slots]bool), slots: newSlotter()}
	for _, i := range shards {
		if i < 0 || i >= layout.Len() {
			return nil, fmt.Errorf("%w: shard %d of %d shards (0 to %d)", ErrLayout, i, layout.Len(), layout.Len()-1)
		}
		for _, r := range layout.shards[i].Ranges {
			for slot := r.First; slot <= r.Last; slot++ {
				f.kept[slot] = true
			}
		}
	}
	return f, nil
}

// keep tells whether the record of key is passed on, and counts it.
func (f *Filter) keep(key []byte) bool {
	if !f.kept[f.slots.slot(key)] {
		f.Dropped++
		return false
	}
	f.Kept++
	return true
}

// Wants tells whether the record of key is kept: a source that asks (Filter is a
// record.KeyFilter) leaves out the records of other shards without computing them, which
// with random values or collections costs far more than the key. A key refused is counted
// as dropped, and must not be written.
func (f *Filter) Wants(key []byte) bool {
	if f.kept[f.slots.slot(key)] {
		return true
	}
	f.Dropped++
	return false
}

// WriteFunction passes a function library on, when the sink after the Filter carries them:
// libraries belong to no key, and every shard's file holds them.
func (f *Filter) WriteFunction(code []byte) error {
	fs, ok := f.next.(interface{ WriteFunction(code []byte) error })
	if !ok {
		return fmt.Errorf("a function library (%.40q): %w", code, errNoFunctions)
	}
	return fs.WriteFunction(code)
}

// errNoFunctions is the error of a function library for a sink that cannot carry one.
var errNoFunctions = errors.New("the sink after a shard filter cannot carry function libraries")

// Discard is the destination of a shard that is not written, whose records a Filter keeps
// away: a File that keeps nothing, which a Writer can fill in as it fills in files
// (CanFill). Its shard's file gets only its header and end.
var Discard File = discard{}

// discard is Discard: every write succeeds and keeps nothing, and reads read zeros.
type discard struct{}

func (discard) Write(b []byte) (int, error)            { return len(b), nil }
func (discard) WriteAt(b []byte, _ int64) (int, error) { return len(b), nil }
func (discard) ReadAt(b []byte, _ int64) (int, error)  { clear(b); return len(b), nil }
func (discard) Seek(int64, int) (int64, error)         { return 0, nil }
func (discard) Truncate(int64) error                   { return nil }

// errOpen is the error of a record begun while a dropped collection is open, which next,
// had it seen the collection, would have refused.
var errOpen = fmt.Errorf("%w: a new record begun", encoder.ErrCollectionOpen)

// begin opens a record of key: in next when it is kept, else as dropped.
func (f *Filter) begin(key []byte, open func() error) error {
	if f.skip {
		return errOpen
	}
	if f.skip = !f.keep(key); f.skip {
		return nil
	}
	return open()
}

// member adds a member to the open record, unless it is dropped.
func (f *Filter) member(add func() error) error {
	if f.skip {
		return nil
	}
	return add()
}

// BeginDB passes db on.
func (f *Filter) BeginDB(db int, info encoder.DBInfo) error { return f.next.BeginDB(db, info) }

// WriteString passes the string on when its key is kept.
func (f *Filter) WriteString(key, value []byte, expireAtMS int64) error {
	switch {
	case f.skip:
		return errOpen
	case !f.keep(key):
		return nil
	}
	return f.next.WriteString(key, value, expireAtMS)
}

// BeginHash opens a hash of n fields, when its key is kept.
func (f *Filter) BeginHash(key []byte, n uint64, expireAtMS int64) error {
	return f.begin(key, func() error { return f.next.BeginHash(key, n, expireAtMS) })
}

// BeginList opens a list of n elements, when its key is kept.
func (f *Filter) BeginList(key []byte, n uint64, expireAtMS int64) error {
	return f.begin(key, func() error { return f.next.BeginList(key, n, expireAtMS) })
}

// BeginSet opens a set of n members, when its key is kept.
func (f *Filter) BeginSet(key []byte, n uint64, expireAtMS int64) error {
	return f.begin(key, func() error { return f.next.BeginSet(key, n, expireAtMS) })
}

// BeginZSet opens a sorted set of n members, when its key is kept.
func (f *Filter) BeginZSet(key []byte, n uint64, expireAtMS int64) error {
	return f.begin(key, func() error { return f.next.BeginZSet(key, n, expireAtMS) })
}

// BeginHashWithFieldTTL opens a hash with field TTLs, when its key is kept.
func (f *Filter) BeginHashWithFieldTTL(key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	return f.begin(key, func() error { return f.next.BeginHashWithFieldTTL(key, n, expireAtMS, minFieldExpireAtMS) })
}

// BeginStream opens a stream, when its key is kept.
func (f *Filter) BeginStream(key []byte, expireAtMS int64) error {
	return f.begin(key, func() error { return f.next.BeginStream(key, expireAtMS) })
}

// AddField adds a field to the open hash.
func (f *Filter) AddField(field, value []byte) error {
	return f.member(func() error { return f.next.AddField(field, value) })
}

// AddFieldWithTTL adds a field with its expiry to the open hash.
func (f *Filter) AddFieldWithTTL(field, value []byte, expireAtMS int64) error {
	return f.member(func() error { return f.next.AddFieldWithTTL(field, value, expireAtMS) })
}

// AddElement adds an element to the open list.
func (f *Filter) AddElement(element []byte) error {
	return f.member(func() error { return f.next.AddElement(element) })
}

// AddMember adds a member to the open set.
func (f *Filter) AddMember(member []byte) error {
	return f.member(func() error { return f.next.AddMember(member) })
}

// AddScoredMember adds a member to the open sorted set.
func (f *Filter) AddScoredMember(member []byte, score float64) error {
	return f.member(func() error { return f.next.AddScoredMember(member, score) })
}

// AddStreamEntry adds an entry to the open stream.
func (f *Filter) AddStreamEntry(id encoder.StreamID, fields [][]byte) error {
	return f.member(func() error { return f.next.AddStreamEntry(id, fields) })
}

// SetStreamMeta sets the open stream's metadata.
func (f *Filter) SetStreamMeta(meta encoder.StreamMeta) error {
	return f.member(func() error { return f.next.SetStreamMeta(meta) })
}

// AddStreamGroup adds a consumer group to the open stream.
func (f *Filter) AddStreamGroup(g *encoder.StreamGroup) error {
	return f.member(func() error { return f.next.AddStreamGroup(g) })
}

// EndCollection closes the open record.
func (f *Filter) EndCollection() error {
	if f.skip {
		f.skip = false
		return nil
	}
	return f.next.EndCollection()
}
