package memory

import (
	"cmp"
	"math"
	"slices"

	"github.com/rdbgen/rdbgen/record"
)

// Usage is the memory of some keys.
type Usage struct {
	Keys  uint64 `json:"keys"`
	Bytes int64  `json:"bytes"`
}

// DBUsage is the memory of one database: its keys, and the bucket arrays of its main and
// expires dicts, which no type owns.
type DBUsage struct {
	DB      int    `json:"db"`
	Keys    uint64 `json:"keys"`
	Expires uint64 `json:"expires"`
	Bytes   int64  `json:"bytes"`  // everything, tables included
	Tables  int64  `json:"tables"` // the bucket arrays of the main and expires dicts
	// Rehashing is the old bucket array the main and expires dicts may still hold right
	// after loading a file without RESIZEDB, whose dicts grew by doubling, until the
	// server's cron finishes rehashing them; not in Bytes.
	Rehashing int64 `json:"rehashing,omitempty"`
}

// TypeUsage is the memory of the keys of one type: their values, names, dict entries and
// expiries.
type TypeUsage struct {
	Type record.Type `json:"type"`
	Usage
}

// EncodingUsage is the memory of the keys of one type in one encoding, named as OBJECT
// ENCODING names it: int, embstr, raw, listpack, intset, hashtable, skiplist, quicklist,
// stream.
type EncodingUsage struct {
	Type     record.Type `json:"type"`
	Encoding string      `json:"encoding"`
	Usage
}

// A Result is an estimate of used_memory above an empty server's. Bytes is the sum of the
// databases' Bytes, and also of the types' Bytes plus Tables.
type Result struct {
	Target string `json:"target"`
	// Allocator is "libc" for an estimate of a server built with glibc's malloc
	// (Options.Allocator), empty for jemalloc's.
	Allocator string          `json:"allocator,omitempty"`
	Bytes     int64           `json:"bytes"`
	Keys      uint64          `json:"keys"`
	Expires   uint64          `json:"expires"`
	Tables    int64           `json:"tables"`
	Rehashing int64           `json:"rehashing,omitempty"` // see DBUsage.Rehashing
	DBs       []DBUsage       `json:"dbs"`                 // ascending
	Types     []TypeUsage     `json:"types"`               // in record.Types order
	Encodings []EncodingUsage `json:"encodings"`           // by type as Types, then by encoding name
	// LowerBound tells that the data holds module values, whose memory the model does not
	// know: each counts as a key whose value takes its serialized size, which a module's
	// own structures exceed, so Bytes is a lower bound.
	LowerBound bool `json:"lower_bound,omitempty"`
}

type dbUsage struct {
	DBUsage
	hintKeys, hintExpires uint64 // the RESIZEDB counts
	resized               bool   // RESIZEDB was given: the expires dict has a table even if empty
}

type encKey struct {
	typ record.Type
	enc string
}

// tables returns the bucket arrays of d's dicts at the end of loading.
func (d *dbUsage) tables(a *allocator) int64 {
	var b int64
	if n := max(d.Keys, d.hintKeys); n > 0 {
		b += a.dictTable(n)
	}
	if n := max(d.Expires, d.hintExpires); n > 0 || d.resized {
		b += a.dictTable(n)
	}
	return b
}

// rehashing returns the bucket arrays d's dicts may hold beside their final ones at the end
// of loading. A dict that grows doubles when it is full (dictExpand to used+1), then moves
// a bucket on every add; with n entries in s buckets about s·(1-1/e) are not empty, so the
// rehash from s to 2s buckets lasts that many adds.
func (d *dbUsage) rehashing(a *allocator) int64 {
	if d.resized {
		return 0
	}
	var b int64
	for _, n := range []uint64{d.Keys, d.Expires} {
		old := buckets(n) / 2
		if old >= dictMinBuckets && float64(n-old) < float64(old)*(1-1/math.E) {
			b += a.size(int64(8 * old))
		}
	}
	return b
}

// Result returns the estimate of the records so far, or the first error of a sink method.
// A collection still open is left out.
func (e *Estimator) Result() (Result, error) {
	if e.err != nil {
		return Result{}, e.err
	}
	r := Result{Target: e.model.target.Name, LowerBound: e.types[record.Module] != nil}
	if e.alloc != jemalloc {
		r.Allocator = e.alloc.name
	}
	for _, db := range e.order {
		d := *e.dbs[db]
		if d.Keys == 0 && !d.resized {
			continue
		}
		d.Tables = d.tables(e.alloc)
		d.Rehashing = d.rehashing(e.alloc)
		r.Rehashing += d.Rehashing
		d.Bytes += d.Tables
		r.DBs = append(r.DBs, d.DBUsage)
		r.Bytes += d.Bytes
		r.Keys += d.Keys
		r.Expires += d.Expires
		r.Tables += d.Tables
	}
	slices.SortFunc(r.DBs, func(a, b DBUsage) int { return cmp.Compare(a.DB, b.DB) })
	for _, t := range record.Types {
		if u := e.types[t]; u != nil {
			r.Types = append(r.Types, TypeUsage{t, *u})
		}
	}
	for k, u := range e.encs {
		r.Encodings = append(r.Encodings, EncodingUsage{k.typ, k.enc, *u})
	}
	rank := func(t record.Type) int { return slices.Index(record.Types, t) }
	slices.SortFunc(r.Encodings, func(a, b EncodingUsage) int {
		return cmp.Or(cmp.Compare(rank(a.Type), rank(b.Type)), cmp.Compare(a.Encoding, b.Encoding))
	})
	return r, nil
}
