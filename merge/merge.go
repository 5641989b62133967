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
	// Duplicates counts the records left out under DupFirst and DupLast, once WriteTo
	// returns.
	Duplicates uint64
}

// WriteTo writes the records of every input into sink.
func (s *Source) WriteTo(ctx context.Context, sink record.Sink) error {
	keys := record.NewKeySet()
	libs := map[string]bool{}
	s.Duplicates = 0
	if s.OnDuplicate == record.DupLast {
		for i, in := range s.Inputs {
			g := &lister{keys: keys, n: int64(i)}
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
		dbs := &dbTracker{Gate: gate, db: &db, libs: libs}
		if err := in.Source.WriteTo(ctx, dbs); err != nil {
			return err
		}
		s.Duplicates += gate.Dropped
	}
	return nil
}

// dbTracker is a Gate that notes the open database for its Keep.
type dbTracker struct {
	*record.Gate
	db   *int
	libs map[string]bool // the code of the function libraries written
}

// WriteFunction passes a library on unless an input before held the same code (every shard
// of a cluster holds the libraries).
func (d *dbTracker) WriteFunction(code []byte) error {
	if d.libs[string(code)] {
		return nil
	}
	d.libs[string(code)] = true
	return d.Gate.WriteFunction(code)
}

// BeginDB notes db and passes the call on.
func (d *dbTracker) BeginDB(db int, c record.Counts) error {
	*d.db = db
	return d.Gate.BeginDB(db, record.Counts{}) // an input's counts are not the merge's
}

// lister puts each key in keys with the number n (the last input that holds it).
type lister struct {
	record.Discard
	keys *record.KeySet
	n    int64
	db   int
}

// BeginDB notes db.
func (l *lister) BeginDB(db int, _ record.Counts) error { l.db = db; return nil }

// Begin keeps the key.
func (l *lister) Begin(h *record.Header) error { l.keys.Put(l.db, h.Key, l.n); return nil }
