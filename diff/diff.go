// Package diff compares two dumps logically: the keys only in one, and the keys whose type,
// value or members, expiry or hash-field expiries differ, database by database, whatever
// the RDB versions, encodings and key orders of the two. It reads each source once into
// per-key fingerprints kept in partitioned runs in temporary files (bounded memory on tens
// of millions of keys), compares the runs partition by partition, and reads the sources a
// second time, only when they differ, for the names of the first differing keys.
package diff

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/rdbgen/rdbgen/record"
)

// ErrTemp is the error of the temporary files that hold the fingerprints.
var ErrTemp = errors.New("diff: temporary file")

// DefaultLimit is the number of differing keys Compare names by default.
const DefaultLimit = 100

// Options tune Compare.
type Options struct {
	// KeysOnly compares which keys each side holds (and their types) only.
	KeysOnly bool
	// IgnoreTTL leaves key and hash-field expiries out of the comparison.
	IgnoreTTL bool
	// Limit is the number of differing keys named (the counts take them all); 0 means
	// DefaultLimit, a negative number none.
	Limit int
}

// What a key differs in.
const (
	OnlyA = "only_a" // the key is in A alone
	OnlyB = "only_b" // the key is in B alone
	// Changed: in both, and Fields says what differs.
	Changed = "changed"
)

// A Side is one side's view of a named key.
type Side struct {
	Type       record.Type `json:"type"`
	ExpireAtMS int64       `json:"expire_at_ms,omitempty"`
}

// A Key is one differing key.
type Key struct {
	DB   int    `json:"db"`
	Key  []byte `json:"-"`
	Kind string `json:"kind"`
	// Fields lists what differs for Changed: "type", "value", "expiry", "field_ttls".
	Fields []string `json:"fields,omitempty"`
	A      *Side    `json:"a,omitempty"`
	B      *Side    `json:"b,omitempty"`
}

// DBCounts are the counts of one database.
type DBCounts struct {
	DB      int    `json:"db"`
	Same    uint64 `json:"same"`
	OnlyA   uint64 `json:"only_a"`
	OnlyB   uint64 `json:"only_b"`
	Changed uint64 `json:"changed"`
}

// Result is what Compare found.
type Result struct {
	KeysA, KeysB uint64
	// DBs are the counts per database, in ascending order, of every db either side holds.
	DBs []DBCounts
	// Keys are the first Limit differing keys in the order of their fingerprints (arbitrary
	// but the same run after run in one process), then sorted by db and name.
	Keys []Key
	// Differences is the number of differing keys of all databases.
	Differences uint64
	// FunctionsOnlyA and FunctionsOnlyB name the function libraries one side holds alone
	// (or holds with different code).
	FunctionsOnlyA, FunctionsOnlyB []string
	// ModuleAuxOnlyA and ModuleAuxOnlyB name the module AUX data one side holds alone (or
	// holds with other bytes), per module type, encoding version and place (before or
	// after the keyspace).
	ModuleAuxOnlyA, ModuleAuxOnlyB []string
}

// Same reports whether the two sides hold the same data.
func (r *Result) Same() bool {
	return r.Differences == 0 && len(r.FunctionsOnlyA) == 0 && len(r.FunctionsOnlyB) == 0 &&
		len(r.ModuleAuxOnlyA) == 0 && len(r.ModuleAuxOnlyB) == 0
}

// Compare compares the records of a and b.
func Compare(ctx context.Context, a, b record.Source, opts Options) (*Result, error) {
	limit := opts.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	var sides [2]*runs
	var funcs, aux [2]map[string][]byte
	var errs [2]error
	var wg sync.WaitGroup
	for i, src := range []record.Source{a, b} {
		sides[i], funcs[i], aux[i] = newRuns(), map[string][]byte{}, map[string][]byte{}
		wg.Go(func() {
			r, fs, ax := sides[i], funcs[i], aux[i]
			f := &fingerprinter{
				emit: func(e *entry, _ []byte) error { return r.add(e) },
				funcs: func(code []byte) error {
					name, _ := record.LibraryName(code)
					fs[name] = bytes.Clone(code)
					return nil
				},
				aux: func(a *record.ModuleAux) error {
					// A module may save more than once at one place: each value, with its
					// length, in the order saved.
					k := auxLabel(a)
					ax[k] = append(binary.AppendUvarint(ax[k], uint64(len(a.Value))), a.Value...)
					return nil
				},
			}
			errs[i] = src.WriteTo(ctx, f)
			if errs[i] == nil {
				errs[i] = r.flush()
			}
		})
	}
	wg.Wait()
	defer sides[0].close()
	defer sides[1].close()
	if err := cmp.Or(errs[0], errs[1]); err != nil {
		return nil, err
	}
	res := &Result{KeysA: sides[0].keys, KeysB: sides[1].keys}
	res.FunctionsOnlyA, res.FunctionsOnlyB = diffFunctions(funcs[0], funcs[1]), diffFunctions(funcs[1], funcs[0])
	res.ModuleAuxOnlyA, res.ModuleAuxOnlyB = diffFunctions(aux[0], aux[1]), diffFunctions(aux[1], aux[0])
	found, err := merge(ctx, sides, opts, max(limit, 0))
	if err != nil {
		return nil, err
	}
	res.DBs, res.Differences = found.dbs(), found.diffs
	if len(found.keys) > 0 {
		if err := name(ctx, a, b, found.keys); err != nil {
			return nil, err
		}
		for _, k := range found.keys {
			res.Keys = append(res.Keys, *k)
		}
		slices.SortFunc(res.Keys, func(x, y Key) int { return cmp.Or(cmp.Compare(x.DB, y.DB), bytes.Compare(x.Key, y.Key)) })
	}
	return res, nil
}

// auxLabel names module AUX data by module type, encoding version and place.
func auxLabel(a *record.ModuleAux) string {
	switch a.When {
	case record.ModuleAuxBefore:
		return a.Label() + " before the keys"
	case record.ModuleAuxAfter:
		return a.Label() + " after the keys"
	}
	return fmt.Sprintf("%s saved at %d", a.Label(), a.When)
}

// diffFunctions returns the names of the libraries (or module AUX data) of x that y lacks
// or holds otherwise.
func diffFunctions(x, y map[string][]byte) []string {
	var out []string
	for n, c := range x {
		if o, ok := y[n]; !ok || !bytes.Equal(o, c) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// name reads both sources again for the names of the keys of found, by key hash.
func name(ctx context.Context, a, b record.Source, found map[uint64]*Key) error {
	for _, src := range []record.Source{a, b} {
		f := &fingerprinter{
			wants: func(kh uint64) bool { _, ok := found[kh]; return ok },
			emit: func(e *entry, key []byte) error {
				k := found[e.Key]
				if k.Key == nil {
					k.Key = bytes.Clone(key)
				}
				return nil
			},
		}
		if err := src.WriteTo(ctx, f); err != nil {
			return err
		}
	}
	return nil
}
