// Package filter keeps some of the records that pass from a record.Source to a record.Sink:
// those of some databases, whose keys match a glob, of some types, a deterministic sample,
// or those not yet expired, and the hash fields not yet expired. A Filter is a record.Sink
// that wraps another.
//
// A Filter is a record.Gate, which drops whole keys, and, with DropExpiredFields, a stage
// behind it that drops the expired fields of the hashes it keeps. Filtering changes the
// counts of a database, so a Filter passes zero counts (unknown) to the wrapped sink's
// BeginDB, and opens a database there only when one of its records is kept.
package filter

import (
	"errors"
	"fmt"
	"github.com/rdbgen/rdbgen/internal/glob"
	"slices"
	"strings"
	"time"

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
	// Modules, when not nil, are the module types (their 9-character names, as TYPE
	// answers) whose module values are kept: a module value of another module type is
	// dropped; keys of other types are kept or dropped by Types alone. AddType fills Types
	// and Modules from "module:NAME".
	Modules []string
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

	anyModule bool // AddType saw "module": every module type is kept
}

// AddType adds a type to keep, as a flag or rule names it (record.ParseTypeFilter): one of
// record.Types, or "module:NAME" for the module values of one module type. "module" alone
// keeps every module type, whatever "module:NAME" is added beside it. An unknown type or
// module type name wraps ErrBadOption.
func (o *Options) AddType(s string) error {
	t, module, err := record.ParseTypeFilter(s)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadOption, err)
	}
	if !slices.Contains(o.Types, t) {
		o.Types = append(o.Types, t)
	}
	switch {
	case t != record.Module || o.anyModule:
	case module == "":
		o.anyModule, o.Modules = true, nil
	case !slices.Contains(o.Modules, module):
		o.Modules = append(o.Modules, module)
	}
	return nil
}

// AddTypes adds the types of lists, each one type or several separated by commas
// ("hash,zset"), as a repeated flag gives them; see AddType.
func (o *Options) AddTypes(lists ...string) error {
	for _, list := range lists {
		for _, s := range strings.Split(list, ",") {
			if err := o.AddType(strings.TrimSpace(s)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Active reports whether the options drop anything at all.
func (o Options) Active() bool {
	return o.DBs != nil || (o.Match != "" && o.Match != "*") || o.Types != nil || o.Modules != nil || (o.Sample != 0 && o.Sample != 1) || o.DropExpired || o.DropExpiredFields
}

// Check reports the first option New cannot use, wrapping ErrBadOption; nil when it can use
// them all.
func (o Options) Check() error {
	if o.Sample < 0 || o.Sample > 1 || o.Sample != o.Sample {
		return fmt.Errorf("%w: sample %v is not a fraction above 0 and at most 1", ErrBadOption, o.Sample)
	}
	for _, db := range o.DBs {
		if db < 0 || db > record.MaxDB {
			return fmt.Errorf("%w: db %d out of range (0 to %d)", ErrBadOption, db, record.MaxDB)
		}
	}
	for _, t := range o.Types {
		if t == "" || !t.Valid() {
			return fmt.Errorf("%w: unknown type %q (known: string, list, set, zset, hash, stream, module)", ErrBadOption, t)
		}
	}
	for _, m := range o.Modules {
		if _, err := record.ModuleID(m, 0); err != nil {
			return fmt.Errorf("%w: %w", ErrBadOption, err)
		}
	}
	return nil
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

// A Filter is a record.Sink that passes the records its Options keep to another Sink. Its
// Gate drops the keys the options refuse; with DropExpiredFields, the keys it keeps go
// through a stage that drops expired hash fields before they reach the sink.
type Filter struct {
	record.Gate
	opts   Options
	match  []byte
	dbs    map[int]bool
	types  map[record.Type]bool
	mods   map[uint64]bool // with Modules: module ids without encoding version
	limit  uint64          // keep a key whose sample hash is below it
	nowMS  int64
	sink   record.Sink
	db     int
	dbKept bool // the current database is kept
	dbOpen bool // it is open in sink
	kept   uint64
	fields fieldDropper // with DropExpiredFields, the Gate's Next
}

// New returns a Filter that passes the records opts keep to sink. Options that Check
// refuses are an error wrapping ErrBadOption.
func New(sink record.Sink, opts Options) (*Filter, error) {
	if err := opts.Check(); err != nil {
		return nil, err
	}
	opts.DropExpiredFields = opts.DropExpiredFields || opts.DropExpired
	f := &Filter{sink: sink, opts: opts, limit: ^uint64(0)}
	if opts.Sample > 0 && opts.Sample < 1 {
		f.limit = uint64(opts.Sample * (1 << 64))
	}
	if opts.Match != "" {
		f.match = []byte(opts.Match)
	}
	if opts.DBs != nil {
		f.dbs = map[int]bool{}
		for _, db := range opts.DBs {
			f.dbs[db] = true
		}
	}
	if opts.Types != nil {
		f.types = map[record.Type]bool{}
		for _, t := range opts.Types {
			f.types[t] = true
		}
	}
	if opts.Modules != nil {
		f.mods = map[uint64]bool{}
		for _, m := range opts.Modules {
			id, _ := record.ModuleID(m, 0) // Check accepted it
			f.mods[id] = true
		}
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	f.nowMS = now.UnixMilli()
	f.Keep, f.Next = f.keep, sink
	if opts.DropExpiredFields {
		// The stage after the Gate opens the database of the keys it passes on.
		f.fields = fieldDropper{Pass: record.Pass{Next: sink}, f: f}
		f.Keep, f.Next = f.pass, &f.fields
	}
	return f, nil
}

// Stats returns the records kept and dropped so far.
func (f *Filter) Stats() Stats {
	return Stats{
		Kept:          f.kept,
		Dropped:       f.Dropped + f.fields.emptied,
		ExpiredFields: f.fields.expired,
		EmptiedHashes: f.fields.emptied,
	}
}

// BeginDB notes the database of the records that follow; it is opened in the wrapped sink,
// with zero counts, when one of its records is kept.
func (f *Filter) BeginDB(db int, _ record.Counts) error {
	f.db, f.dbOpen = db, false
	f.dbKept = f.dbs == nil || f.dbs[db]
	return nil
}

// keep is the Gate's Keep without DropExpiredFields: a key the options keep opens its
// database in the sink.
func (f *Filter) keep(h *record.Header) (bool, error) {
	if ok, _ := f.pass(h); !ok {
		return false, nil
	}
	return true, f.open()
}

// pass tells whether the options keep the key h opens.
func (f *Filter) pass(h *record.Header) (bool, error) {
	return f.dbKept &&
		(f.types == nil || f.types[h.Type]) &&
		(f.mods == nil || h.Type != record.Module || f.mods[h.ModuleID&^1023]) &&
		(f.match == nil || glob.Match(f.match, h.Key)) &&
		(!f.opts.DropExpired || h.ExpireAtMS == 0 || h.ExpireAtMS > f.nowMS) &&
		(f.limit == ^uint64(0) || sampleHash(f.opts.Seed, h.Key) < f.limit), nil
}

// open counts a key kept and opens its database in the sink.
func (f *Filter) open() error {
	f.kept++
	if !f.dbOpen {
		if err := f.sink.BeginDB(f.db, record.Counts{}); err != nil {
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

var _ record.Sink = (*Filter)(nil)
