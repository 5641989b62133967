package rdbgen

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

// ErrTargetCannotHold is returned by Convert for a record the target's RDB version cannot
// hold: a hash with field TTLs before RDB 12, a stream before RDB 9, a function library
// before RDB 10, a module value before RDB 8 and module AUX data before RDB 9.
var ErrTargetCannotHold = errors.New("the target cannot hold it")

// ConvertOptions configure Convert. The zero value converts every record.
type ConvertOptions struct {
	// Filter chooses the records to keep (see filter.Options); default keep all. Where the
	// encoder drops field TTLs (encoder.Options.DropFieldTTL below RDB 12), the fields that
	// have expired at Filter.Now are dropped (filter.Options.DropExpiredFields): written
	// without their TTL, they would never expire.
	Filter filter.Options
	// SkipUnsupported leaves out, counting them, the records the target cannot hold instead
	// of failing; default off.
	SkipUnsupported bool
	// Rebase, if not nil, moves every expiry (keys and hash fields) by the shift before the
	// filter sees them (see package rebase); default nil, expiries as they are.
	Rebase *rebase.Shift
	// DropFunctions leaves out the source's function libraries, counting them in
	// ConvertStats.FunctionsDropped; default off: they are written, and a target whose RDB
	// version has none (below 10) is an error wrapping ErrTargetCannotHold naming the
	// library. The filter never drops them: they are not keys.
	DropFunctions bool
}

// ConvertStats count what Convert kept and left out.
type ConvertStats struct {
	Read        uint64                // records read from the source
	Filtered    uint64                // records the filter dropped
	Unsupported uint64                // records left out under SkipUnsupported
	DBs         map[int]record.Counts // records written per database
	// ExpiredFields counts the hash fields dropped as expired, and EmptiedHashes the hashes
	// dropped (and counted in Filtered) because every field had expired.
	ExpiredFields, EmptiedHashes uint64
	// Functions counts the function libraries passed on, FunctionsDropped those left out
	// under DropFunctions.
	Functions, FunctionsDropped uint64
	// ModuleAux counts the module AUX records passed on.
	ModuleAux uint64
}

// ConvertSource returns src as the records an RDB file for encOpts's target can hold: those
// opts.Filter keeps and, with SkipUnsupported, those the target's RDB version holds (a key it
// cannot hold is otherwise an error wrapping ErrTargetCannotHold, naming the key and the way
// out). Write it with Write, WriteFile, WriteShards or WriteShardFiles under the same encoder
// options, with encoder.Options.CountsAreHints set when src is a dump (its RESIZEDB counts
// are hints, and a db of it may come in two sections); stats are complete once its WriteTo
// returns.
func ConvertSource(src record.Source, encOpts encoder.Options, opts ConvertOptions) (conv record.Source, stats *ConvertStats, err error) {
	w, err := encoder.NewWriter(io.Discard, encOpts)
	if err != nil {
		return nil, nil, err
	}
	stats = &ConvertStats{}
	return &converted{src: src, version: w.RDBVersion(), target: w.Target().Name, dropFieldTTL: encOpts.DropFieldTTL, opts: opts, stats: stats}, stats, nil
}

// Convert writes the records of src (an RDB file's decoder.File, say) that ConvertSource
// keeps as an RDB file for opts.Encoder's target to dst, each collection in the encoding the
// target would choose (see Write). The counts src gives are taken as hints
// (encoder.Options.CountsAreHints), as a dump's are. dst is not closed.
func Convert(ctx context.Context, dst io.Writer, src record.Source, opts Options, copts ConvertOptions) (Result, ConvertStats, error) {
	opts.Encoder.CountsAreHints = true
	conv, stats, err := ConvertSource(src, opts.Encoder, copts)
	if err != nil {
		return Result{}, ConvertStats{}, err
	}
	res, err := Write(ctx, dst, conv, opts)
	return res, *stats, err
}

// converted is the Source that ConvertSource returns.
type converted struct {
	src          record.Source
	version      int
	target       string
	dropFieldTTL bool // the encoder writes hashes with field TTLs without them
	opts         ConvertOptions
	stats        *ConvertStats
}

func (c *converted) WriteTo(ctx context.Context, sink record.Sink) error {
	stats, err := convertInto(ctx, sink, c.version, c.target, c.dropFieldTTL, c.src, c.opts)
	*c.stats = stats
	return err
}

// convertInto writes src through opts's filter and the target check into sink, which writes
// RDB version for target.
func convertInto(ctx context.Context, sink record.Sink, version int, target string, dropFieldTTL bool, src record.Source, opts ConvertOptions) (ConvertStats, error) {
	stats := ConvertStats{}
	if dropFieldTTL && version < 12 {
		opts.Filter.DropExpiredFields = true
	}
	kept := newTally(sink, nil)
	t := &targetSink{version: version, target: target, dropFieldTTL: dropFieldTTL, opts: opts, stats: &stats}
	t.Gate = record.Gate{Pass: record.Pass{Next: kept}, Keep: t.holds}
	var into record.Sink = t
	var f *filter.Filter
	if opts.Filter.Active() {
		var err error
		if f, err = filter.New(t, opts.Filter); err != nil {
			return stats, err
		}
		into = f
	}
	if opts.Rebase != nil {
		src = rebase.Through(src, *opts.Rebase)
	}
	err := src.WriteTo(ctx, into)
	if f != nil {
		fs := f.Stats()
		stats.Filtered, stats.ExpiredFields, stats.EmptiedHashes = fs.Dropped, fs.ExpiredFields, fs.EmptiedHashes
	}
	stats.Read = stats.Filtered + t.seen
	stats.Unsupported = t.Dropped
	if stats.DBs = kept.DBs(); stats.DBs == nil {
		stats.DBs = map[int]record.Counts{}
	}
	return stats, err
}

// targetSink is a record.Gate that passes on the keys the target's RDB version can hold,
// and refuses (or, under SkipUnsupported, drops) the others.
type targetSink struct {
	record.Gate
	version int
	target  string
	// dropFieldTTL: the encoder writes a hash with field TTLs as a plain hash, so any RDB
	// version holds it.
	dropFieldTTL bool
	opts         ConvertOptions
	stats        *ConvertStats
	db           int
	seen         uint64
}

// BeginDB passes db on, without counts under SkipUnsupported: the keys it drops would make
// them wrong.
func (t *targetSink) BeginDB(db int, c record.Counts) error {
	t.db = db
	if t.opts.SkipUnsupported {
		c = record.Counts{}
	}
	return t.Next.BeginDB(db, c)
}

// holds counts a key and decides whether the target holds it: the Gate's Keep.
func (t *targetSink) holds(h *record.Header) (bool, error) {
	t.seen++
	needs, what, since := 0, "", ""
	switch {
	case h.Type == record.Stream:
		needs, what, since = 9, "a stream", "redis-5.0"
	case h.HasFieldTTLs() && !t.dropFieldTTL:
		needs, what, since = 12, "a hash with field TTLs", "redis-7.4"
	case h.Type == record.Module:
		needs, what, since = encoder.ModuleVersion, fmt.Sprintf("a module value (%s)", record.ModuleName(h.ModuleID)), "redis-5.0"
	}
	if t.version >= needs {
		return true, nil
	}
	if t.opts.SkipUnsupported {
		return false, nil
	}
	way := "leave such keys out with --skip-unsupported"
	if needs == 12 {
		way = "keep them without their field TTLs with --drop-field-ttl, or " + way
	}
	if tg, err := encoder.LookupTarget(t.target); err == nil && tg.RDBVersion >= needs {
		// The target holds it: the version asked for (--rdb-version) is the one too old.
		return false, fmt.Errorf("key %q (db %d): %w: %s needs RDB %d, and the file is written as RDB %d (--rdb-version); choose --rdb-version %d or more, or leave --rdb-version out, or %s",
			h.Key, t.db, ErrTargetCannotHold, what, needs, t.version, needs, way)
	}
	return false, fmt.Errorf("key %q (db %d): %w: %s needs RDB %d (%s or later), and %s writes RDB %d; choose a newer --target, or %s",
		h.Key, t.db, ErrTargetCannotHold, what, needs, since, t.target, t.version, way)
}

// WriteFunction passes a function library on, unless DropFunctions leaves it out; a target
// whose RDB version has no libraries is an error naming it and the ways out.
func (t *targetSink) WriteFunction(code []byte) error {
	if t.opts.DropFunctions {
		t.stats.FunctionsDropped++
		return nil
	}
	if t.version < encoder.FunctionsVersion {
		return fmt.Errorf("%s: %w: function libraries need RDB %d (redis-7.0 or later), and %s writes RDB %d; choose a newer --target, or leave them out with --drop-functions",
			record.LibraryLabel(code), ErrTargetCannotHold, encoder.FunctionsVersion, t.target, t.version)
	}
	if err := t.Next.WriteFunction(code); err != nil {
		return err
	}
	t.stats.Functions++
	return nil
}

// WriteModuleAux passes a module's AUX data on; a target whose RDB version has none (below
// 9) is an error naming the module.
func (t *targetSink) WriteModuleAux(a *record.ModuleAux) error {
	if t.version < encoder.ModuleAuxVersion {
		return fmt.Errorf("%s: %w: module AUX data needs RDB %d (redis-5.0 or later), and the file is written as RDB %d; choose a newer --target or --rdb-version",
			a.Label(), ErrTargetCannotHold, encoder.ModuleAuxVersion, t.version)
	}
	if err := t.Next.WriteModuleAux(a); err != nil {
		return err
	}
	t.stats.ModuleAux++
	return nil
}
