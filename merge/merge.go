// Package merge joins several sources (a cluster's shard files, dumps of different dbs)
// into one stream of records, a key that more than one source holds in the same database
// handled by the rule of record.OnDuplicate across sources as a reader applies it within
// one: an error naming the key and both sources, the first source's record, or the last's.
package merge

import (
	"context"
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// ErrDuplicateKey is the error of a key that two inputs hold under record.DupError.
var ErrDuplicateKey = errors.New("merge: key in two inputs")

// Function libraries are records like keys: a name that two inputs hold with other code is
// handled by the rule of OnDuplicate (record.LibraryRule; the error wraps
// record.ErrDuplicateLibrary), and so is module AUX data of one module and place
// (record.ModuleAuxRule, record.ErrDuplicateModuleAux); a library or module AUX data that
// several inputs hold the same (every shard of a cluster holds them) is written once.

// An Input is one source of a merge and its name, for errors.
type Input struct {
	Name   string
	Source record.Source
}

// A Source is a record.Source over its inputs, read one after the other: a database that
// several inputs hold is opened once per input (write it with a sink told that counts are
// hints, as encoder.Options.CountsAreHints). Keys that come in more than one input are found
// in bounded memory by the reader's check for repeated keys (decoder.KeyLog: 5.5 MiB, and 8
// bytes a key in a temporary file in $TMPDIR past about half a million keys), plus 32 to
// 64 bytes for each key whose hash comes more than once (in the usual case, the few keys
// that more than one input holds). Under DupError the inputs are read once, and once more
// only when some hash repeats, to name the key; under DupFirst they are read once before
// for their keys, under DupLast once or twice before.
type Source struct {
	Inputs      []Input
	OnDuplicate record.OnDuplicate
	// Duplicates counts the records of keys left out under DupFirst and DupLast, and
	// LibrariesDropped the function libraries left out there for another of the same name
	// with other code, and ModuleAuxDropped the module AUX data left out there for other
	// bytes of the same module (record.ModuleAuxRule), once WriteTo returns.
	Duplicates, LibrariesDropped, ModuleAuxDropped uint64
}

// WriteTo writes the records of every input into sink.
func (s *Source) WriteTo(ctx context.Context, sink record.Sink) error {
	log := decoder.NewKeyLog()
	defer log.Close()
	keys := record.NewKeySet() // the candidates' db and key → the input of their first (DupLast: last) record
	libs := record.NewLibraryRule(s.OnDuplicate)
	aux := record.NewModuleAuxRule(s.OnDuplicate)
	s.Duplicates, s.LibrariesDropped, s.ModuleAuxDropped = 0, 0, 0
	var cand *decoder.Candidates
	if s.OnDuplicate != record.DupError {
		var err error
		if cand, err = s.candidates(ctx, log, libs, aux); err != nil {
			return err
		}
	}
	if s.OnDuplicate == record.DupLast && cand.Len() > 0 {
		err := s.readKeys(ctx, func(n int64, db int, key []byte) error {
			if cand.Has(db, key) {
				keys.Put(db, key, n)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for i, in := range s.Inputs {
		gate := &record.Gate{Pass: record.Pass{Next: sink}}
		var db int
		gate.Keep = func(h *record.Header) (bool, error) {
			switch {
			case s.OnDuplicate == record.DupError:
				log.Add(db, h.Key)
				return true, nil
			case !cand.Has(db, h.Key):
				return true, nil
			case s.OnDuplicate == record.DupLast:
				last, _ := keys.Get(db, h.Key)
				return last == int64(i), nil
			}
			first, dup := keys.Add(db, h.Key, int64(i))
			return !dup || first == int64(i), nil // a repeat inside one input is its reader's to judge
		}
		dbs := &dbTracker{Gate: gate, db: &db, libs: libs, aux: aux, n: int64(i), name: s.inputName}
		if err := in.Source.WriteTo(ctx, dbs); err != nil {
			if s.OnDuplicate == record.DupError && ctx.Err() == nil {
				// A key two inputs held before this error is the error, as it came first.
				if dup := s.checkRepeats(ctx, log); errors.Is(dup, ErrDuplicateKey) {
					return dup
				}
			}
			return err
		}
		s.Duplicates += gate.Dropped
	}
	s.LibrariesDropped, s.ModuleAuxDropped = libs.Dropped, aux.Dropped
	if s.OnDuplicate == record.DupError {
		return s.checkRepeats(ctx, log)
	}
	return nil
}

// candidates reads the inputs for their keys into log (and, under DupLast, their libraries
// into libs and their module AUX data into aux) and returns the keys whose hash came more
// than once.
func (s *Source) candidates(ctx context.Context, log *decoder.KeyLog, libs *record.LibraryRule, aux *record.ModuleAuxRule) (*decoder.Candidates, error) {
	if s.OnDuplicate != record.DupLast {
		libs, aux = nil, nil
	}
	for i, in := range s.Inputs {
		l := &lister{keys: func(_ int64, db int, key []byte) error { log.Add(db, key); return nil }, libs: libs, aux: aux, n: int64(i)}
		if err := in.Source.WriteTo(ctx, l); err != nil {
			return nil, err
		}
	}
	return log.Repeats(ctx)
}

// checkRepeats fails, under DupError, when a key of the inputs written came in two: the
// candidates of log are compared by reading the inputs again, and the first key that an
// input before held is the error.
func (s *Source) checkRepeats(ctx context.Context, log *decoder.KeyLog) error {
	cand, err := log.Repeats(ctx)
	if err != nil || cand.Len() == 0 {
		return err
	}
	keys := record.NewKeySet()
	return s.readKeys(ctx, func(n int64, db int, key []byte) error {
		if !cand.Has(db, key) {
			return nil
		}
		if first, dup := keys.Add(db, key, n); dup && first != n {
			return fmt.Errorf("%w: db %d key %q is in %s and %s (--on-duplicate first or last keeps one)",
				ErrDuplicateKey, db, key, s.Inputs[first].Name, s.Inputs[n].Name)
		}
		return nil
	})
}

// readKeys reads every input for its keys, calling fn with the input's number, the db and
// the key of each.
func (s *Source) readKeys(ctx context.Context, fn func(n int64, db int, key []byte) error) error {
	for i, in := range s.Inputs {
		if err := in.Source.WriteTo(ctx, &lister{keys: fn, n: int64(i)}); err != nil {
			return err
		}
	}
	return nil
}

// Describe adds to m what the records merged are: the inputs by name, the rule for keys
// that came again and the records it left out, once WriteTo returns.
func (s *Source) Describe(m *manifest.Manifest) {
	names := make([]string, len(s.Inputs))
	for i, in := range s.Inputs {
		names[i] = in.Name
	}
	m.Import = &manifest.Import{Inputs: names, Format: string(input.RDB), Duplicates: s.Duplicates, OnDup: string(s.OnDuplicate)}
}

// inputName names the input numbered n.
func (s *Source) inputName(n int64) string { return s.Inputs[n].Name }

// dbTracker is a Gate that notes the open database for its Keep, and passes on the
// function libraries and module AUX data of input n that the merge writes.
type dbTracker struct {
	*record.Gate
	db   *int
	libs *record.LibraryRule
	aux  *record.ModuleAuxRule
	n    int64
	name func(n int64) string
}

// WriteFunction passes a library on as the rule of the merge says.
func (d *dbTracker) WriteFunction(code []byte) error {
	keep, err := d.libs.Keep(code, d.n, d.name)
	if !keep || err != nil {
		return err
	}
	return d.Gate.WriteFunction(code)
}

// WriteModuleAux passes module AUX data on as the rule of the merge says.
func (d *dbTracker) WriteModuleAux(a *record.ModuleAux) error {
	keep, err := d.aux.Keep(a, d.n, d.name)
	if !keep || err != nil {
		return err
	}
	return d.Gate.WriteModuleAux(a)
}

// BeginDB notes db and passes the call on.
func (d *dbTracker) BeginDB(db int, c record.Counts) error {
	*d.db = db
	return d.Gate.BeginDB(db, record.Counts{}) // an input's counts are not the merge's
}

// lister hands each key of input n to keys, and notes each library in libs and each module
// AUX data in aux (the last input that holds it), each when set.
type lister struct {
	record.Discard
	keys func(n int64, db int, key []byte) error
	libs *record.LibraryRule
	aux  *record.ModuleAuxRule
	n    int64
	db   int
}

// WriteFunction notes the library.
func (l *lister) WriteFunction(code []byte) error {
	if l.libs != nil {
		l.libs.Note(code, l.n)
	}
	return nil
}

// WriteModuleAux notes the module AUX data.
func (l *lister) WriteModuleAux(a *record.ModuleAux) error {
	if l.aux != nil {
		l.aux.Note(a, l.n)
	}
	return nil
}

// BeginDB notes db.
func (l *lister) BeginDB(db int, _ record.Counts) error { l.db = db; return nil }

// Begin hands the key on.
func (l *lister) Begin(h *record.Header) error {
	if l.keys == nil {
		return nil
	}
	return l.keys(l.n, l.db, h.Key)
}
