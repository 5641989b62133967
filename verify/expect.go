package verify

import (
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/manifest"
)

// expectation is what a server must hold: the counts per database, and, when a manifest
// gives the dataset, every record.
type expectation struct {
	// source names where the expectation comes from, for mismatches: "manifest" or "file".
	source string
	dbs    map[int]manifest.Counts
	// d is the dataset that computes the records; nil when only the counts are known.
	d *dataset.Strings
	// firstExpiry is the earliest expiry of any key, in Unix ms; 0 when none expires.
	firstExpiry int64
}

// newExpectation returns what the manifest m says.
func newExpectation(m *manifest.Manifest) expectation {
	e := expectation{source: "manifest", dbs: m.DBs, d: m.Dataset}
	if lo, _, ok := e.expiryRange(); ok {
		e.firstExpiry = lo
	}
	return e
}

// fileExpectation returns what a server that loaded the file of rep must hold, when no
// manifest says more: the file's counts.
func fileExpectation(rep *FileReport) expectation {
	dbs := make(map[int]manifest.Counts, len(rep.DBs))
	for db, c := range rep.DBs {
		dbs[db] = manifest.Counts{Keys: c.Keys, Expires: c.Expires}
	}
	return expectation{source: "file", dbs: dbs, firstExpiry: rep.MinExpireAtMS}
}

// count returns the number of records that can be recomputed.
func (e expectation) count() uint64 {
	if e.d == nil {
		return 0
	}
	return e.d.Count
}

// A record is what one key must hold.
type record struct {
	db  int
	key string
	// typ is the key's type, as the TYPE command names it: "string", "hash"...
	typ        string
	value      []byte // strings
	expireAtMS int64  // absolute Unix ms; 0 for none
}

// record returns record i of the dataset; e.d must not be nil.
func (e expectation) record(i uint64) record {
	return record{
		db:         e.d.DB,
		key:        string(e.d.AppendKey(nil, i)),
		typ:        e.keyType(),
		value:      e.d.AppendValue(nil, i),
		expireAtMS: e.d.ExpireAtMS(i),
	}
}

// keyType returns the type of the dataset's keys.
func (e expectation) keyType() string { return "string" }

// absent returns keys that the dataset says do not exist: those numbered just before its
// first key and just after its last, in its database.
func (e expectation) absent() []record {
	if e.d == nil {
		return nil
	}
	d := e.d
	var out []record
	key := func(n uint64) record {
		return record{db: d.DB, key: d.KeyPrefix + strconv.FormatUint(n, 10)}
	}
	if d.KeyStart > 0 {
		out = append(out, key(d.KeyStart-1))
	}
	if d.Count > 0 && d.KeyStart+d.Count-1 < math.MaxUint64 {
		out = append(out, key(d.KeyStart+d.Count))
	}
	return out
}

// expiryRange returns the bounds of the dataset's expiries in Unix ms: ttl ± jitter after
// its base time. ok is false when its keys do not expire.
func (e expectation) expiryRange() (lo, hi int64, ok bool) {
	d := e.d
	if d == nil || d.TTL <= 0 || d.Count == 0 {
		return 0, 0, false
	}
	at := d.BaseTimeMS + d.TTL.Milliseconds()
	j := d.TTLJitter.Milliseconds()
	return at - j, at + j, true
}

// unionDBs returns the database numbers of a and b, in order.
func unionDBs[A, B any](a map[int]A, b map[int]B) []int {
	dbs := slices.Collect(maps.Keys(a))
	for db := range b {
		if _, ok := a[db]; !ok {
			dbs = append(dbs, db)
		}
	}
	slices.Sort(dbs)
	return dbs
}
