// Package filter keeps some of the records that pass from a record.Source to a record.Sink:
// those of some databases, whose keys match a glob, of some types, a deterministic sample,
// or those not yet expired, and the hash fields not yet expired. A Filter is a record.Sink
// that wraps another.
//
// Filtering changes the counts of a database, so a Filter passes zero counts (unknown) to
// the wrapped sink's BeginDB, and opens a database there only when one of its records is
// kept.
package filter

import (
	"errors"
	"fmt"
	"time"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// ErrBadOption is returned by New for options it cannot use.
var ErrBadOption = errors.New("filter: invalid option")

// Options choose the records a Filter keeps; a record is kept when it passes every one. The
// zero value keeps everything.
type Options struct {
	// DBs are the databases to keep; default nil, all.
	DBs []int
	// Match is a glob the keys must match, with Redis's rules (see Match); default "", all.
	Match string
	// Types are the types to keep; default nil, all.
	Types []record.Type
	// Sample is the fraction of keys to keep, above 0 and at most 1: a key is kept when a
	// hash of Seed and the key falls under it, so the same seed keeps the same keys, whatever
	// their order or the other filters. Default 0 means 1, every key.
	Sample float64
	// Seed seeds Sample's hash; default 0, a seed like any other.
	Seed uint64
	// DropExpired drops records whose expiry is at or before Now, and the hash fields whose
	// expiry is (as DropExpiredFields); default off.
	DropExpired bool
	// DropExpiredFields drops the hash fields whose expiry is at or before Now, counting
	// them, and a hash left with no field as a key that expired; default off. A hash with
	// such fields is held (in memory up to 4 MiB, in a temporary file in $TMPDIR past that)
	// until its fields are counted.
	DropExpiredFields bool
	// Now is the time DropExpired and DropExpiredFields compare with; default the time New
	// is called.
	Now time.Time
}

// Active reports whether the options drop anything at all.
func (o Options) Active() bool {
	return o.DBs != nil || (o.Match != "" && o.Match != "*") || o.Types != nil || (o.Sample != 0 && o.Sample != 1) || o.DropExpired || o.DropExpiredFields
}

// Stats count what a Filter kept and dropped.
type Stats struct {
	// Kept and Dropped count records; Dropped includes EmptiedHashes.
	Kept, Dropped uint64
	// ExpiredFields counts the hash fields dropped as expired, those of EmptiedHashes too.
	ExpiredFields uint64
	// EmptiedHashes counts the hashes dropped because every field had expired.
	EmptiedHashes uint64
}

// A Filter is a record.Sink that passes the records its Options keep to another Sink.
type Filter struct {
	sink     record.Sink
	opts     Options
	match    []byte
	dbs      map[int]bool
	types    map[record.Type]bool
	limit    uint64 // keep a key whose sample hash is below it
	nowMS    int64
	db       int
	dbKept   bool // the current database is kept
	dbOpen   bool // it is open in sink
	skipping bool // the open collection is dropped
	holding  bool // the open hash's live fields are held until it ends
	held     heldHash
	stats    Stats
}

// New returns a Filter that passes the records opts keep to sink.
func New(sink record.Sink, opts Options) (*Filter, error) {
	opts.DropExpiredFields = opts.DropExpiredFields || opts.DropExpired
	f := &Filter{sink: sink, opts: opts, limit: ^uint64(0)}
	if opts.Sample < 0 || opts.Sample > 1 || opts.Sample != opts.Sample {
		return nil, fmt.Errorf("%w: sample %v is not a fraction above 0 and at most 1", ErrBadOption, opts.Sample)
	}
	if opts.Sample > 0 && opts.Sample < 1 {
		f.limit = uint64(opts.Sample * (1 << 64))
	}
	if opts.Match != "" {
		f.match = []byte(opts.Match)
	}
	if opts.DBs != nil {
		f.dbs = map[int]bool{}
		for _, db := range opts.DBs {
			if db < 0 || db > record.MaxDB {
				return nil, fmt.Errorf("%w: db %d out of range (0 to %d)", ErrBadOption, db, record.MaxDB)
			}
			f.dbs[db] = true
		}
	}
	if opts.Types != nil {
		f.types = map[record.Type]bool{}
		for _, t := range opts.Types {
			if t == "" || !t.Valid() {
				return nil, fmt.Errorf("%w: unknown type %q (known: string, list, set, zset, hash, stream)", ErrBadOption, t)
			}
			f.types[t] = true
		}
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	f.nowMS = now.UnixMilli()
	return f, nil
}

// Stats returns the records kept and dropped so far.
func (f *Filter) Stats() Stats { return f.stats }

// BeginDB notes the database of the records that follow; it is opened in the wrapped sink,
// with zero counts, when one of its records is kept.
func (f *Filter) BeginDB(db int, _ encoder.DBInfo) error {
	f.db, f.dbOpen = db, false
	f.dbKept = f.dbs == nil || f.dbs[db]
	return nil
}

// keep decides on a record and opens its database in the sink when it is kept.
func (f *Filter) keep(t record.Type, key []byte, exp int64) (bool, error) {
	if !f.pass(t, key, exp) {
		f.stats.Dropped++
		return false, nil
	}
	if err := f.kept(); err != nil {
		return false, err
	}
	return true, nil
}

// pass tells whether the options keep a record.
func (f *Filter) pass(t record.Type, key []byte, exp int64) bool {
	return f.dbKept &&
		(f.types == nil || f.types[t]) &&
		(f.match == nil || Match(f.match, key)) &&
		(!f.opts.DropExpired || exp == 0 || exp > f.nowMS) &&
		(f.limit == ^uint64(0) || sampleHash(f.opts.Seed, key) < f.limit)
}

// kept counts a record kept and opens its database in the sink.
func (f *Filter) kept() error {
	f.stats.Kept++
	if !f.dbOpen {
		if err := f.sink.BeginDB(f.db, encoder.DBInfo{}); err != nil {
			return err
		}
		f.dbOpen = true
	}
	return nil
}

// sampleHash is FNV-1a of the seed and the key, finished with splitmix64's mixer so that
// every bit depends on every input bit.
func sampleHash(seed uint64, key []byte) uint64 {
	h := uint64(14695981039346656037)
	for i := range 8 {
		h = (h ^ uint64(byte(seed>>(8*i)))) * 1099511628211
	}
	for _, c := range key {
		h = (h ^ uint64(c)) * 1099511628211
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// WriteString passes a kept string on.
func (f *Filter) WriteString(key, value []byte, exp int64) error {
	if ok, err := f.keep(record.String, key, exp); !ok {
		return err
	}
	return f.sink.WriteString(key, value, exp)
}

func (f *Filter) begin(t record.Type, key []byte, exp int64, open func() error) error {
	ok, err := f.keep(t, key, exp)
	f.skipping = !ok
	if !ok {
		return err
	}
	return open()
}

// BeginHash opens a kept hash in the sink.
func (f *Filter) BeginHash(key []byte, n uint64, exp int64) error {
	return f.begin(record.Hash, key, exp, func() error { return f.sink.BeginHash(key, n, exp) })
}

// BeginList opens a kept list in the sink.
func (f *Filter) BeginList(key []byte, n uint64, exp int64) error {
	return f.begin(record.List, key, exp, func() error { return f.sink.BeginList(key, n, exp) })
}

// BeginSet opens a kept set in the sink.
func (f *Filter) BeginSet(key []byte, n uint64, exp int64) error {
	return f.begin(record.Set, key, exp, func() error { return f.sink.BeginSet(key, n, exp) })
}

// BeginZSet opens a kept sorted set in the sink.
func (f *Filter) BeginZSet(key []byte, n uint64, exp int64) error {
	return f.begin(record.ZSet, key, exp, func() error { return f.sink.BeginZSet(key, n, exp) })
}

// BeginHashWithFieldTTL opens a kept hash with field TTLs in the sink. With
// DropExpiredFields, a hash one of whose fields may have expired (its smallest field expiry
// is at or before Now) is held until it ends instead.
func (f *Filter) BeginHashWithFieldTTL(key []byte, n uint64, exp, minField int64) error {
	if !f.opts.DropExpiredFields || minField == 0 || minField > f.nowMS || !f.pass(record.Hash, key, exp) {
		return f.begin(record.Hash, key, exp, func() error { return f.sink.BeginHashWithFieldTTL(key, n, exp, minField) })
	}
	f.holding = true
	f.held.start(key, exp)
	return nil
}

// BeginStream opens a kept stream in the sink.
func (f *Filter) BeginStream(key []byte, exp int64) error {
	return f.begin(record.Stream, key, exp, func() error { return f.sink.BeginStream(key, exp) })
}

// AddField passes a field of a kept hash on.
func (f *Filter) AddField(field, value []byte) error {
	if f.skipping {
		return nil
	}
	return f.sink.AddField(field, value)
}

// AddFieldWithTTL passes a field of a kept hash on; with DropExpiredFields, one that has
// expired is dropped.
func (f *Filter) AddFieldWithTTL(field, value []byte, exp int64) error {
	switch {
	case f.skipping:
		return nil
	case f.opts.DropExpiredFields && exp != 0 && exp <= f.nowMS:
		f.stats.ExpiredFields++
		return nil
	case f.holding:
		return f.held.add(field, value, exp)
	}
	return f.sink.AddFieldWithTTL(field, value, exp)
}

// AddElement passes an element of a kept list on.
func (f *Filter) AddElement(e []byte) error {
	if f.skipping {
		return nil
	}
	return f.sink.AddElement(e)
}

// AddMember passes a member of a kept set on.
func (f *Filter) AddMember(m []byte) error {
	if f.skipping {
		return nil
	}
	return f.sink.AddMember(m)
}

// AddScoredMember passes a member of a kept sorted set on.
func (f *Filter) AddScoredMember(m []byte, score float64) error {
	if f.skipping {
		return nil
	}
	return f.sink.AddScoredMember(m, score)
}

// AddStreamEntry passes an entry of a kept stream on.
func (f *Filter) AddStreamEntry(id record.StreamID, fields [][]byte) error {
	if f.skipping {
		return nil
	}
	return f.sink.AddStreamEntry(id, fields)
}

// SetStreamMeta passes the metadata of a kept stream on.
func (f *Filter) SetStreamMeta(m record.StreamMeta) error {
	if f.skipping {
		return nil
	}
	return f.sink.SetStreamMeta(m)
}

// AddStreamGroup passes a group of a kept stream on.
func (f *Filter) AddStreamGroup(g *record.StreamGroup) error {
	if f.skipping {
		return nil
	}
	return f.sink.AddStreamGroup(g)
}

// EndCollection closes a kept collection in the sink. A hash held is passed on with the
// fields that live on, or dropped when none does.
func (f *Filter) EndCollection() error {
	switch {
	case f.skipping:
		f.skipping = false
		return nil
	case f.holding:
		f.holding = false
		return f.endHeld()
	}
	return f.sink.EndCollection()
}

// endHeld passes the hash held on with its live fields, or drops it when it has none.
func (f *Filter) endHeld() error {
	h := &f.held
	if h.n == 0 {
		h.release()
		f.stats.Dropped++
		f.stats.EmptiedHashes++
		return nil
	}
	if err := f.kept(); err != nil {
		h.release()
		return err
	}
	if err := f.sink.BeginHashWithFieldTTL(h.key, h.n, h.exp, h.minField); err != nil {
		h.release()
		return err
	}
	if err := h.replay(f.sink.AddFieldWithTTL); err != nil {
		return err
	}
	return f.sink.EndCollection()
}

var _ record.Sink = (*Filter)(nil)

// WriteFunction passes a function library on, whatever the options: libraries are not
// keys, so no filter drops them.
func (f *Filter) WriteFunction(code []byte) error { return record.WriteFunction(f.sink, code) }
