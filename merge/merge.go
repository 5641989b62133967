// Package merge joins several sources (a cluster's shard files, dumps of different dbs)
// into one stream of records, a key that more than one source holds in the same database
// handled by the rule of record.OnDuplicate across sources as a reader applies it within
// one: an error naming the key and both sources, the first source's record, or the last's.
package merge

import (
	"context"
	"errors"
	"fmt"

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
// hints, as encoder.Options.CountsAreHints). The keys are remembered by a record.KeySet
// (32 to 64 bytes a key); under DupLast the inputs are read twice, first for their keys.
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
	keys := record.NewKeySet()
	libs := record.NewLibraryRule(s.OnDuplicate)
	aux := record.NewModuleAuxRule(s.OnDuplicate)
	s.Duplicates, s.LibrariesDropped, s.ModuleAuxDropped = 0, 0, 0
	if s.OnDuplicate == record.DupLast {
		for i, in := range s.Inputs {
			g := &lister{keys: keys, libs: libs, aux: aux, n: int64(i)}
			if err := in.Source.WriteTo(ctx, g); err != nil {
				return err
			}
		}
	}
	for i, in := range s.Inputs {
		gate := &record.Gate{Pass: record.Pass{Next: sink}}
		var db int
		gate.Keep = func(h *record.Header) (bool, error) {
			switch s.OnDuplicate {
			case record.DupLast:
				last, _ := keys.Get(db, h.Key)
				return last == int64(i), nil
			default:
				first, dup := keys.Add(db, h.Key, int64(i))
				if !dup || first == int64(i) { // a repeat inside one input is its reader's to judge
					return true, nil
				}
				if s.OnDuplicate == record.DupFirst {
					return false, nil
				}
				return false, fmt.Errorf("%w: db %d key %q is in %s and %s (--on-duplicate first or last keeps one)",
					ErrDuplicateKey, db, h.Key, s.Inputs[first].Name, in.Name)
			}
		}
		dbs := &dbTracker{Gate: gate, db: &db, libs: libs, aux: aux, n: int64(i), name: s.inputName}
		if err := in.Source.WriteTo(ctx, dbs); err != nil {
			return err
		}
		s.Duplicates += gate.Dropped
	}
	s.LibrariesDropped, s.ModuleAuxDropped = libs.Dropped, aux.Dropped
	return nil
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

// lister puts each key in keys, and each library in libs, with the number n (the last
// input that holds it).
type lister struct {
	record.Discard
	keys *record.KeySet
	libs *record.LibraryRule
	aux  *record.ModuleAuxRule
	n    int64
	db   int
}

// WriteFunction notes the library.
func (l *lister) WriteFunction(code []byte) error { l.libs.Note(code, l.n); return nil }

// WriteModuleAux notes the module AUX data.
func (l *lister) WriteModuleAux(a *record.ModuleAux) error { l.aux.Note(a, l.n); return nil }

// BeginDB notes db.
func (l *lister) BeginDB(db int, _ record.Counts) error { l.db = db; return nil }

// Begin keeps the key.
func (l *lister) Begin(h *record.Header) error { l.keys.Put(l.db, h.Key, l.n); return nil }
