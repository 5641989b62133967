// Package importer reads records from JSON (the objects `rdb -c json` of
// github.com/hdt3213/rdb prints, as an array or as JSON Lines) and CSV, and copies them into
// a record.Sink such as an rdbsink.Writer.
//
// Readers stream: they hold one record at a time (a CSV hash: the rows of one key). Copy
// holds the set of keys seen so far, which refusing duplicates needs, and nothing else.
package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

// A Reader reads records one by one.
type Reader interface {
	// Read returns the next record, valid until the next call, or io.EOF after the last.
	// A reader that is a MemberStreamer may return a list without its Members.
	// A malformed record is a *LineError, after which Read goes on with the next one; any
	// other error ends the input.
	Read() (*record.Record, error)
	// Line returns the line on which the record last returned starts.
	Line() int64
}

// A MemberStreamer is a Reader that may leave the elements of a long list in its input
// instead of the record, which it then returns with no Members.
type MemberStreamer interface {
	// StreamedMembers returns how many elements the record last returned left in the input;
	// 0 when the record holds its members.
	StreamedMembers() uint64
	// WriteMembers adds those elements to the list open in sink.
	WriteMembers(sink record.Sink) error
}

// streamedMembers returns the elements that r left in its input for its last record.
func streamedMembers(r Reader) (MemberStreamer, uint64) {
	if ms, ok := r.(MemberStreamer); ok {
		return ms, ms.StreamedMembers()
	}
	return nil, 0
}

// A LineError is a malformed record and the line where it starts. A Fatal one (broken
// JSON or CSV syntax, a bad header) ends the input: the reader returns io.EOF after it.
type LineError struct {
	Line  int64
	Err   error
	Fatal bool
}

// Error returns "line N: " and the problem.
func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the problem, for errors.Is and errors.As.
func (e *LineError) Unwrap() error { return e.Err }

// ErrDBOrder reports a database whose records come back after another's; Copy returns it
// (and errors wrapping record.ErrDuplicateKey), for errors.Is.
var ErrDBOrder = errors.New("importer: records of a db are not together")

// Options configure Copy. The zero value refuses duplicates and malformed records.
type Options struct {
	// OnDuplicate: record.DupError (default, also for ""), record.DupFirst or record.DupLast.
	OnDuplicate record.OnDuplicate
	// SkipInvalid skips malformed records, counting them, instead of failing on the first.
	SkipInvalid bool
	// Now is the time that tells which expiries are past, for Stats.Expired; default now.
	Now time.Time
}

// Stats count what Copy did.
type Stats struct {
	Records    uint64 // records read, malformed ones included
	Written    uint64 // records written
	Skipped    uint64 // malformed records skipped (SkipInvalid)
	Duplicates uint64 // records of keys dropped as duplicates (record.DupFirst, DupLast)
	Expired    uint64 // written records whose expiry is already past: Redis drops them at load
	Functions  uint64 // function libraries written (JSON objects of type "function")
	ModuleAux  uint64 // module AUX data written (JSON objects of type "module-aux")
	// LibrariesDropped counts the function libraries dropped under record.DupFirst and
	// DupLast for another of the same name with other code.
	LibrariesDropped uint64
	// ModuleAuxDropped counts the module AUX data dropped under record.DupFirst and DupLast
	// for other bytes of the same module and place.
	ModuleAuxDropped uint64
	// FirstSkipped is the first malformed record skipped, for the report.
	FirstSkipped error
	// DBs holds the keys written to each database, and those of them with an expiry.
	DBs map[int]record.Counts
}

// checkEvery is how many records pass between checks for cancellation.
const checkEvery = 1 << 12

// Copy reads every record that open's Reader yields and writes it to sink, database by
// database. The records of one database must come together, as a dump lists them; a
// database that comes back later is an error (ErrDBOrder). With record.DupLast, open is called twice
// and must yield the same records both times. Progress is the sink's to report.
func Copy(ctx context.Context, sink record.Sink, open func() (Reader, error), opts Options) (Stats, error) {
	c := &copier{ctx: ctx, sink: sink, opts: opts, now: opts.Now}
	if c.now.IsZero() {
		c.now = time.Now()
	}
	c.libs = record.NewLibraryRule(opts.OnDuplicate)
	c.aux = record.NewModuleAuxRule(opts.OnDuplicate)
	switch opts.OnDuplicate {
	case "", record.DupError, record.DupFirst:
		c.seen = record.NewKeySet()
	case record.DupLast:
		if err := c.findLast(open); err != nil {
			return c.stats, err
		}
		c.stats = Stats{}
	default:
		return Stats{}, fmt.Errorf("on duplicate %q (known: error, first, last)", opts.OnDuplicate)
	}
	r, err := open()
	if err != nil {
		return Stats{}, err
	}
	c.writing = true
	err = c.each(r, c.write)
	c.stats.LibrariesDropped, c.stats.ModuleAuxDropped = c.libs.Dropped, c.aux.Dropped
	return c.stats, err
}

type copier struct {
	ctx      context.Context
	sink     record.Sink
	opts     Options
	now      time.Time
	stats    Stats
	seen     *record.KeySet        // key → line of its record
	libs     *record.LibraryRule   // the function libraries: records like keys
	aux      *record.ModuleAuxRule // module AUX data: records like keys
	last     *record.KeySet        // record.DupLast: key → number of its last record
	counts   map[int]record.Counts // record.DupLast: what each db will hold
	db       int                   // the open db
	open     bool                  // a db is open
	dbLine   map[int]int64         // the line each db started on
	streamer MemberStreamer        // the reader, when the record's elements stay in its input
	streamed uint64                // how many
	writing  bool                  // the pass that writes (not DupLast's first)
}

// checkRecord checks rec as record.Check does, counting the streamed elements of a list.
func checkRecord(rec *record.Record, streamed uint64) error {
	if streamed > 0 && rec.Type == record.List && len(rec.Members) == 0 {
		held := *rec
		held.Members = []record.Member{{}} // not empty: the elements are in the input
		return held.Check()
	}
	return rec.Check()
}

// writeRecord writes rec to sink, with the elements of a list that stayed in the input.
func (c *copier) writeRecord(rec *record.Record) error {
	if c.streamed == 0 || rec.Type != record.List {
		return rec.WriteTo(c.sink)
	}
	h := record.Header{Key: rec.Key, Type: record.List, Len: c.streamed, ExpireAtMS: rec.ExpireAtMS}
	if err := c.sink.Begin(&h); err != nil {
		return err
	}
	if err := c.streamer.WriteMembers(c.sink); err != nil {
		return err
	}
	return c.sink.End(nil)
}

// each calls fn for each good record of r with its line and its number (counted from 1,
// malformed records included: several records may share a line), skipping or failing on
// malformed ones.
func (c *copier) each(r Reader, fn func(rec *record.Record, line int64, n uint64) error) error {
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return c.ctx.Err()
		}
		if err == nil && rec.Type == typeFunction {
			if err := c.function(rec.Value, r.Line()); err != nil {
				return err
			}
			continue
		}
		if err == nil && rec.Type == typeModuleAux {
			if err := c.moduleAux(rec, r.Line()); err != nil {
				return err
			}
			continue
		}
		var le *LineError
		if err == nil {
			c.streamer, c.streamed = streamedMembers(r)
			if cerr := checkRecord(rec, c.streamed); cerr != nil {
				err = &LineError{Line: r.Line(), Err: cerr}
			} else if cerr := checkMembers(rec); cerr != nil {
				err = &LineError{Line: r.Line(), Err: cerr}
			}
		}
		c.stats.Records++
		switch {
		case err == nil:
			if err := fn(rec, r.Line(), c.stats.Records); err != nil {
				return err
			}
		case errors.As(err, &le) && c.opts.SkipInvalid && !le.Fatal:
			c.stats.Skipped++
			if c.stats.FirstSkipped == nil {
				c.stats.FirstSkipped = err
			}
		default:
			return err
		}
		if c.stats.Records%checkEvery == 0 {
			if err := c.ctx.Err(); err != nil {
				return err
			}
		}
	}
}

// function writes a function library, in the pass that writes, as the duplicate rule says
// (see record.LibraryRule); DupLast's first pass notes it.
func (c *copier) function(code []byte, line int64) error {
	if !c.writing {
		c.libs.Note(code, line)
		return nil
	}
	keep, err := c.libs.Keep(code, line, func(at int64) string { return fmt.Sprintf("line %d", at) })
	if err != nil {
		return &LineError{Line: line, Err: err, Fatal: true}
	}
	if !keep {
		return nil
	}
	if err := c.sink.WriteFunction(code); err != nil {
		return fmt.Errorf("line %d: %w", line, err)
	}
	c.stats.Functions++
	return nil
}

// moduleAux writes module AUX data, in the pass that writes, as the duplicate rule says
// (see record.ModuleAuxRule); DupLast's first pass notes it.
func (c *copier) moduleAux(rec *record.Record, line int64) error {
	a := &record.ModuleAux{ModuleID: rec.ModuleID, When: uint64(rec.DB), Value: rec.Value}
	if !c.writing {
		c.aux.Note(a, line)
		return nil
	}
	keep, err := c.aux.Keep(a, line, func(at int64) string { return fmt.Sprintf("line %d", at) })
	if err != nil {
		return &LineError{Line: line, Err: err, Fatal: true}
	}
	if !keep {
		return nil
	}
	if err := c.sink.WriteModuleAux(a); err != nil {
		return fmt.Errorf("line %d: %w", line, err)
	}
	c.stats.ModuleAux++
	return nil
}

// findLast reads the input once to find the last record of every key, and what each db holds.
func (c *copier) findLast(open func() (Reader, error)) error {
	r, err := open()
	if err != nil {
		return err
	}
	// Each key's number, doubled, plus 1 when its record expires: what each db holds is
	// its keys' last records.
	c.last = record.NewKeySet()
	c.counts = map[int]record.Counts{}
	return c.each(r, func(rec *record.Record, _ int64, n uint64) error {
		exp := rec.ExpireAtMS > 0
		prev, dup := c.last.Get(rec.DB, rec.Key)
		c.last.Put(rec.DB, rec.Key, int64(n)<<1|boolInt(exp))
		counts := c.counts[rec.DB]
		if !dup {
			counts.Keys++
		}
		if dup && prev&1 == 1 {
			counts.Expires--
		}
		if exp {
			counts.Expires++
		}
		c.counts[rec.DB] = counts
		return nil
	})
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// write writes one record, after the duplicate and db-order checks.
func (c *copier) write(rec *record.Record, line int64, n uint64) error {
	if c.last != nil {
		if last, _ := c.last.Get(rec.DB, rec.Key); uint64(last>>1) != n {
			c.stats.Duplicates++
			return nil
		}
	} else if first, dup := c.seen.Add(rec.DB, rec.Key, line); dup {
		if c.opts.OnDuplicate == record.DupFirst {
			c.stats.Duplicates++
			return nil
		}
		return &LineError{Line: line, Err: fmt.Errorf("%w %q in db %d (first at line %d; see --on-duplicate)", record.ErrDuplicateKey, rec.Key, rec.DB, first)}
	}
	if !c.open || rec.DB != c.db {
		if c.dbLine == nil {
			c.dbLine = map[int]int64{}
		}
		if start, done := c.dbLine[rec.DB]; done {
			return &LineError{Line: line, Err: fmt.Errorf("%w: db %d again, after db %d (db %d started at line %d): sort the input by db",
				ErrDBOrder, rec.DB, c.db, rec.DB, start)}
		}
		c.dbLine[rec.DB] = line
		if err := c.sink.BeginDB(rec.DB, c.counts[rec.DB]); err != nil {
			return err
		}
		c.db, c.open = rec.DB, true
	}
	if err := c.writeRecord(rec); err != nil {
		// The sink names the key; the line is the context added here.
		return fmt.Errorf("line %d: %w", line, err)
	}
	c.stats.Written++
	if c.stats.DBs == nil {
		c.stats.DBs = map[int]record.Counts{}
	}
	counts := c.stats.DBs[rec.DB]
	counts.Keys++
	if rec.ExpireAtMS > 0 {
		counts.Expires++
	}
	c.stats.DBs[rec.DB] = counts
	if rec.ExpireAtMS > 0 && rec.ExpireAtMS <= c.now.UnixMilli() {
		c.stats.Expired++
	}
	return nil
}

// checkMembers refuses a set, sorted set or hash whose members repeat, which Redis would
// refuse to load (stream entries are Members too: their ids rise, the writer checks them).
func checkMembers(rec *record.Record) error {
	if rec.Type == record.List || rec.Type == record.Stream || len(rec.Members) < 2 {
		return nil
	}
	seen := make(map[string]struct{}, len(rec.Members))
	for _, m := range rec.Members {
		if _, dup := seen[string(m.Name)]; dup {
			what := "member"
			if rec.Type == record.Hash {
				what = "field"
			}
			return fmt.Errorf("key %q: %s %q repeated", rec.Key, what, m.Name)
		}
		seen[string(m.Name)] = struct{}{}
	}
	return nil
}
