// Package convert is the conversion of records into an RDB file of another target: it keeps
// those a filter keeps (package filter), moves their expiries (package rebase), and checks
// each against what the file can hold (the encoder's capability table), refusing, or with
// Options.SkipUnsupported counting and leaving out, what it cannot. Through returns the
// converted records as a record.Source for package output's File, Shards or Write; Write
// converts into one io.Writer.
package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

// Options configure a conversion. The zero value converts every record.
type Options struct {
	// Filter chooses the records to keep (see filter.Options); default keep all. Where the
	// encoder drops field TTLs (encoder.Options.DropFieldTTL, in a file that cannot hold
	// them: rdb.HashFieldTTL), the fields that have expired at Filter.Now are dropped
	// (filter.Options.DropExpiredFields): written without their TTL, they would never
	// expire.
	Filter filter.Options
	// SkipUnsupported leaves out, counting them, the records the file cannot hold (see
	// rdbsink.Check) instead of failing; default off.
	SkipUnsupported bool
	// Rebase, if not nil, moves every expiry (keys and hash fields) by the shift before the
	// filter sees them (see package rebase); default nil, expiries as they are. SetCreated
	// sets it from RebaseTo.
	Rebase *rebase.Shift
	// RebaseTo, if not zero, makes SetCreated move every expiry by the time from the input's
	// creation to RebaseTo, the output's creation time then; default zero, no move.
	RebaseTo time.Time
	// KeepCreated makes SetCreated leave the output's creation time as given (without
	// RebaseTo) instead of the input's; default false.
	KeepCreated bool
	// DropFunctions leaves out the source's function libraries, counting them in
	// Stats.FunctionsDropped; default off: they are written, and a file that cannot
	// hold them (rdb.Functions) is an error wrapping rdb.ErrCannotHold naming the
	// library. The filter never drops them: they are not keys.
	DropFunctions bool
}

// Stats count what a conversion kept and left out.
type Stats struct {
	Read        uint64 // records read from the source
	Filtered    uint64 // records the filter dropped
	Unsupported uint64 // records left out under SkipUnsupported
	// Duplicates counts the records of keys that a rewrite's rename made twice, left out
	// under record.DupFirst or DupLast (see Dump).
	Duplicates uint64
	DBs        map[int]record.Counts // records written per database
	// ExpiredFields counts the hash fields dropped as expired, and EmptiedHashes the hashes
	// dropped (and counted in Filtered) because every field had expired.
	ExpiredFields, EmptiedHashes uint64
	// Functions counts the function libraries passed on, FunctionsDropped those left out
	// under DropFunctions.
	Functions, FunctionsDropped uint64
	// ModuleAux counts the module AUX records passed on.
	ModuleAux uint64
}

// Through returns src as the records an RDB file for encOpts's target can hold: those
// opts.Filter keeps and, with SkipUnsupported, those the target's RDB version holds (a key it
// cannot hold is otherwise an error wrapping rdb.ErrCannotHold, naming the key and the way
// out). Write it with output.Write, output.WriteShards, output.File or output.Shards under the
// same encoder options, with encoder.Options.CountsAreHints set when src is a dump (its
// RESIZEDB counts are hints, and a db of it may come in two sections); stats are complete
// once its WriteTo returns.
func Through(src record.Source, encOpts encoder.Options, opts Options) (conv record.Source, stats *Stats, err error) {
	caps, err := encOpts.Check()
	if err != nil {
		return nil, nil, err
	}
	stats = &Stats{}
	return &converted{src: src, caps: caps, opts: opts, stats: stats}, stats, nil
}

// Count returns src through the target check of the oldest target that holds whatever a
// dump may (rdb.FirstTarget of every feature), which no record fails: to count a dump's
// records (stats, complete once the source is read) on its way elsewhere than a file, as
// load sends it to a server.
func Count(src record.Source, opts Options) (conv record.Source, stats *Stats, err error) {
	t, _ := rdb.FirstTarget(rdb.Features()...)
	return Through(src, encoder.Options{Target: t.Name}, opts)
}

// Write writes the records of src (an RDB file's decoder.File, say) that Through keeps as
// an RDB file for out.Encoder's target to dst (see output.Write), each collection in the
// encoding the target would choose. The counts src gives are taken as hints
// (encoder.Options.CountsAreHints), as a dump's are. dst is not closed.
func Write(ctx context.Context, dst io.Writer, src record.Source, out output.Options, opts Options) (*output.Result, Stats, error) {
	out.Encoder.CountsAreHints = true
	conv, stats, err := Through(src, out.Encoder, opts)
	if err != nil {
		return nil, Stats{}, err
	}
	res, err := output.Write(ctx, dst, conv, out)
	return res, *stats, err
}

// converted is the Source that Through returns.
type converted struct {
	src   record.Source
	caps  rdb.Capabilities // of the file written
	opts  Options
	stats *Stats
}

func (c *converted) WriteTo(ctx context.Context, sink record.Sink) error {
	stats, err := convertInto(ctx, sink, c.caps, c.src, c.opts)
	*c.stats = stats
	return err
}

// convertInto writes src through opts's filter and the target check into sink, which writes
// a file of capabilities caps.
func convertInto(ctx context.Context, sink record.Sink, caps rdb.Capabilities, src record.Source, opts Options) (Stats, error) {
	stats := Stats{}
	if caps.DropFieldTTL && !caps.Can(rdb.HashFieldTTL) {
		opts.Filter.DropExpiredFields = true
	}
	kept := &record.Count{Next: sink}
	t := &targetSink{caps: caps, opts: opts, stats: &stats, kept: kept}
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
	err := writeThrough(ctx, src, into)
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

// targetSink is a record.Gate that passes on the keys the file can hold (the encoder's
// capability table), and refuses (or, under SkipUnsupported, drops) the others.
type targetSink struct {
	record.Gate
	caps  rdb.Capabilities
	opts  Options
	stats *Stats
	db    int
	seen  uint64
	kept  *record.Count // the Gate's Next
}

// Begin passes a key that needs no feature of the capability table (rdbsink.Needs), as
// most do, straight on to the count after the Gate: the Gate, which then always keeps the
// key, would add two calls a key to the reader's path. The others go through the Gate.
// Between keys the Gate drops nothing (a dropped key's End ends the dropping), so it has no
// state to update here.
func (t *targetSink) Begin(h *record.Header) error {
	if rdbsink.Needs(h) != 0 {
		return t.Gate.Begin(h)
	}
	t.seen++
	return t.kept.Begin(h)
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

// holds counts a key and decides whether the file holds it: the Gate's Keep. A key that
// needs no feature of the capability table (rdbsink.Needs), as most do, is held without
// asking the table.
func (t *targetSink) holds(h *record.Header) (bool, error) {
	t.seen++
	if rdbsink.Needs(h) == 0 {
		return true, nil
	}
	err := rdbsink.Check(t.caps, h)
	if err == nil || t.opts.SkipUnsupported {
		return err == nil, nil
	}
	way := "leave such keys out with --skip-unsupported"
	if rdbsink.Needs(h) == rdb.HashFieldTTL {
		way = "keep them without their field TTLs with --drop-field-ttl, or " + way
	}
	return false, fmt.Errorf("key %q (db %d): %w; %s", h.Key, t.db, err, wayOut(err, way))
}

// wayOut returns what to do about err, a CannotHoldError: a newer --target, or, when the
// target holds it, a newer --rdb-version (for a hash with field TTLs bound for Valkey 9,
// its own format); else way.
func wayOut(err error, way string) string {
	var cannot *rdb.CannotHoldError
	if errors.As(err, &cannot) && cannot.Feature == rdb.HashFieldTTL &&
		(rdb.Capabilities{Target: cannot.In.Target, RDBVersion: rdb.ValkeyVersion}).Can(rdb.ValkeyFormat) {
		return fmt.Sprintf("write Valkey 9's own format (VALKEY080, type 22) with --rdb-version %d, or %s", rdb.ValkeyVersion, way)
	}
	if errors.As(err, &cannot) && cannot.VersionTooOld() {
		return fmt.Sprintf("choose --rdb-version %d or more, or leave --rdb-version out, or %s", cannot.Feature.Since(), way)
	}
	if errors.As(err, &cannot) && cannot.Feature == rdb.HashFieldTTL {
		first, _ := rdb.FirstTarget(rdb.HashFieldTTL)
		for _, t := range rdb.Targets() {
			if (rdb.Capabilities{Target: t, RDBVersion: rdb.ValkeyVersion}).Can(rdb.ValkeyFormat) {
				return fmt.Sprintf("choose a newer --target (%s, or %s with --rdb-version %d), or %s", first.Name, t.Name, rdb.ValkeyVersion, way)
			}
		}
	}
	return "choose a newer --target, or " + way
}

// WriteFunction passes a function library on, unless DropFunctions leaves it out; a file
// that cannot hold libraries is an error naming it and the ways out.
func (t *targetSink) WriteFunction(code []byte) error {
	if t.opts.DropFunctions {
		t.stats.FunctionsDropped++
		return nil
	}
	if !t.caps.Can(rdb.Functions) {
		err := t.caps.Refuse(rdb.Functions)
		return fmt.Errorf("%s: %w; %s", record.LibraryLabel(code), err, wayOut(err, "leave them out with --drop-functions"))
	}
	if err := t.Next.WriteFunction(code); err != nil {
		return err
	}
	t.stats.Functions++
	return nil
}

// WriteModuleAux passes a module's AUX data on; a file that cannot hold it is an error
// naming the module and the ways out.
func (t *targetSink) WriteModuleAux(a *record.ModuleAux) error {
	if !t.caps.Can(rdb.ModuleAux) {
		err := t.caps.Refuse(rdb.ModuleAux)
		return fmt.Errorf("%s: %w; %s", a.Label(), err, wayOut(err, "drop its database's module keys"))
	}
	if err := t.Next.WriteModuleAux(a); err != nil {
		return err
	}
	t.stats.ModuleAux++
	return nil
}
