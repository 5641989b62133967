// Package diff compares two dumps logically: the keys only in one, and the keys whose type,
// value or members, expiry or hash-field expiries differ, database by database, whatever
// the RDB versions, encodings and key orders of the two. It reads the two sources once,
// concurrently, into order-independent sums of per-key fingerprints per bucket of keys
// (1 MiB a dump): equal sums end the comparison. Only when some differ does it read the
// sources again for the fingerprints of the keys of those buckets, compare them key by key
// (in partitioned runs spilled to temporary files when they are many: bounded memory on
// tens of millions of keys), and name the first differing keys; see Compare.
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

// ErrDifferent is the verdict of two dumps that differ (Result.Verdict).
var ErrDifferent = errors.New("diff: the dumps differ")

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

// Verdict returns nil when the two sides hold the same data, else ErrDifferent.
func (r *Result) Verdict() error {
	if r.Same() {
		return nil
	}
	return ErrDifferent
}

// Compare compares the records of a and b. It reads the two concurrently into sums per
// bucket of key hashes (sums.go); when every bucket's sums agree the dumps hold the same
// data and nothing more is read. Otherwise it reads both again for the entries of the keys
// of the differing buckets alone, compares those key by key (runs.go, merge.go: in memory,
// spilled to temporary files only when they are many), and names the first differing keys
// (from the names kept in that read, or from a third read when they were too many to keep).
//
// A difference goes unseen only when hashes collide: two different values (or members,
// or stream contents) of a key with one 64-bit value hash, about 2⁻⁶⁴ for each differing
// key, or two different bucket contents with equal 128-bit sums, about 2⁻¹²⁸ for each
// differing bucket: under 10⁻¹² for 10 million differing keys. The hashes are seeded
// afresh in each process, so no input collides on purpose.
func Compare(ctx context.Context, a, b record.Source, opts Options) (*Result, error) {
	limit := opts.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	var sides [2]*sums
	var funcs, aux [2]map[string][]byte
	err := readBoth(ctx, [2]record.Source{a, b}, func(i int) (*fingerprinter, func() error) {
		s, fs, ax := newSums(), map[string][]byte{}, map[string][]byte{}
		sides[i], funcs[i], aux[i] = s, fs, ax
		f := &fingerprinter{
			keysOnly: opts.KeysOnly,
			emit:     func(e *entry, _ []byte) error { s.add(e, opts); return nil },
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
		return f, func() error { s.done(); return nil }
	})
	if err != nil {
		return nil, err
	}
	res := &Result{KeysA: sides[0].keys, KeysB: sides[1].keys}
	res.FunctionsOnlyA, res.FunctionsOnlyB = diffFunctions(funcs[0], funcs[1]), diffFunctions(funcs[1], funcs[0])
	res.ModuleAuxOnlyA, res.ModuleAuxOnlyB = diffFunctions(aux[0], aux[1]), diffFunctions(aux[1], aux[0])
	fnd := &found{perDB: map[uint32]*DBCounts{}}
	if set, n := differing(sides[0], sides[1]); n > 0 {
		if fnd, err = compareKeys(ctx, a, b, opts, max(limit, 0), set); err != nil {
			return nil, err
		}
		res.Differences = fnd.diffs
		for _, k := range fnd.keys {
			res.Keys = append(res.Keys, *k)
		}
		slices.SortFunc(res.Keys, func(x, y Key) int { return cmp.Or(cmp.Compare(x.DB, y.DB), bytes.Compare(x.Key, y.Key)) })
	}
	for db := range sides[1].perDB {
		if _, ok := sides[0].perDB[db]; !ok {
			fnd.count(db)
		}
	}
	for db := range sides[0].perDB {
		c := fnd.count(db)
		c.Same = sides[0].perDB[db] - c.OnlyA - c.Changed
	}
	res.DBs = fnd.dbs()
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

// readBoth reads a and b concurrently, each into the fingerprinter mk makes for it (0 for
// a, 1 for b), then calls the function mk returned with it.
func readBoth(ctx context.Context, srcs [2]record.Source, mk func(i int) (*fingerprinter, func() error)) error {
	var errs [2]error
	var wg sync.WaitGroup
	for i, src := range srcs {
		f, done := mk(i)
		wg.Go(func() {
			if errs[i] = src.WriteTo(ctx, f); errs[i] == nil {
				errs[i] = done()
			}
		})
	}
	wg.Wait()
	return cmp.Or(errs[0], errs[1])
}

// Names kept per side in the second read: past these, the names come from a third
// (variables for tests).
var (
	keptNames     = 1 << 16
	keptNameBytes = 2 << 20
)

// names are the names of keys kept in the second read, by key hash, end to end in one
// buffer: about 24 bytes a name besides its bytes.
type names struct {
	at  map[uint64]uint64 // key hash → offset in buf << 32 | length
	buf []byte
}

// keep keeps key, of key hash kh, unless keptNames or keptNameBytes are reached.
func (n *names) keep(kh uint64, key []byte) {
	if len(n.at) < keptNames && len(n.buf)+len(key) <= keptNameBytes {
		n.at[kh] = uint64(len(n.buf))<<32 | uint64(len(key))
		n.buf = append(n.buf, key...)
	}
}

// get returns a copy of the name of key hash kh, nil when it was not kept.
func (n *names) get(kh uint64) []byte {
	v, ok := n.at[kh]
	if !ok {
		return nil
	}
	off := v >> 32
	return append([]byte{}, n.buf[off:off+v&(1<<32-1)]...)
}

// compareKeys reads a and b again for the entries of the keys in the buckets of set and
// compares them key by key.
func compareKeys(ctx context.Context, a, b record.Source, opts Options, limit int, set []bool) (*found, error) {
	var sides [2]*runs
	var kept [2]*names
	defer func() { sides[0].close(); sides[1].close() }()
	wants := func(kh uint64) bool { return set[kh>>(64-sumBits)] }
	err := readBoth(ctx, [2]record.Source{a, b}, func(i int) (*fingerprinter, func() error) {
		r, nm := newRuns(), &names{at: map[uint64]uint64{}}
		sides[i], kept[i] = r, nm
		f := &fingerprinter{
			keysOnly: opts.KeysOnly,
			wants:    wants,
			emit: func(e *entry, key []byte) error {
				nm.keep(e.Key, key)
				return r.add(e)
			},
		}
		return f, r.flush
	})
	if err != nil {
		return nil, err
	}
	fnd, err := merge(ctx, sides, opts, limit)
	if err != nil {
		return nil, err
	}
	missing := map[uint64]*Key{}
	for kh, k := range fnd.keys {
		if k.Key = kept[0].get(kh); k.Key == nil {
			k.Key = kept[1].get(kh)
		}
		if k.Key == nil {
			missing[kh] = k
		}
	}
	if len(missing) > 0 {
		if err := name(ctx, a, b, missing); err != nil {
			return nil, err
		}
	}
	return fnd, nil
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

// name reads both sources again (a third time) for the names of the keys of found, by key hash.
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
