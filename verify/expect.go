package verify

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// expectation is what a file or server must hold: the counts per database and, when the
// manifest can recompute them, the records, in parts.
type expectation struct {
	// source names where the expectation comes from, for mismatches: "manifest" or "file".
	source string
	dbs    map[int]record.Counts
	// parts recompute the records: one for a dataset, one per family of a spec file, none
	// for an import or a file without a manifest.
	parts []part
	// absent are keys that must not exist: DB and Key are set.
	absent []record.Record
	// lapse holds, by database, how many fewer keys (all with a TTL) than dbs says may be
	// found: those whose TTL lapsed while the counts were read.
	lapse map[int]uint64
	// live, for a file without a manifest, computes dbs and lapse at the time the server's
	// counts are read; nil otherwise.
	live *liveExpectation
	// firstExpiry is the earliest expiry of any key, in Unix ms; 0 when none expires.
	firstExpiry int64
	// shard, for one file of a cluster dataset, holds the slots of the file's keys: the
	// parts' records of other slots are not in it. Nil otherwise.
	shard *manifest.Shard
}

// A part is a range of records that one function recomputes: a dataset, or a family of a
// spec file.
type part struct {
	name   string // the family's name; "" for a dataset
	db     int
	typ    record.Type
	count  uint64
	record func(i uint64) (record.Record, error)
	// expiries lie in [lo, hi] (Unix ms); hasTTL is false when the keys do not expire.
	lo, hi int64
	hasTTL bool
}

// newExpectation returns what the manifest m says.
func newExpectation(m *manifest.Manifest) (expectation, error) {
	e := expectation{source: "manifest", dbs: m.DBs, shard: m.Cluster}
	switch {
	case m.Dataset != nil:
		d := m.Dataset
		typ := d.Type
		if typ.IsString() {
			typ = record.String
		}
		p := part{db: d.DB, typ: typ, count: d.Count, record: func(i uint64) (record.Record, error) { return d.Record(i), nil }}
		p.setTTL(d.BaseTimeMS, d.TTL, d.TTLJitter)
		e.parts = []part{p}
		if d.KeyStart > 0 {
			e.absent = append(e.absent, record.Record{DB: d.DB, Key: strconv.AppendUint([]byte(d.KeyPrefix), d.KeyStart-1, 10)})
		}
		if d.Count > 0 && d.KeyStart+d.Count-1 < math.MaxUint64 {
			e.absent = append(e.absent, record.Record{DB: d.DB, Key: d.AppendKey(nil, d.Count)})
		}
	case m.Spec != nil:
		s, err := spec.Parse(m.Spec.File, []byte(m.Spec.YAML))
		if err != nil {
			return e, fmt.Errorf("the manifest's spec: %w", err)
		}
		if err := s.SetParams(m.Spec.Params); err != nil {
			return e, fmt.Errorf("the manifest's spec: %w", err)
		}
		for _, f := range s.Families {
			p := part{name: f.Name, db: f.DB, typ: f.Type, count: f.Keys(), record: f.Record}
			if p.typ.IsString() {
				p.typ = record.String
			}
			p.setTTL(s.Params.BaseTimeMS, f.TTL, f.TTLJitter)
			e.parts = append(e.parts, p)
		}
		e.absent = specAbsent(s)
	}
	for _, p := range e.parts {
		if p.hasTTL && (e.firstExpiry == 0 || p.lo < e.firstExpiry) {
			e.firstExpiry = p.lo
		}
	}
	return e, nil
}

// setTTL sets the expiry range of keys that expire ttl ± jitter after base.
func (p *part) setTTL(base int64, ttl, jitter time.Duration) {
	if ttl <= 0 || p.count == 0 {
		return
	}
	at := base + ttl.Milliseconds()
	p.lo, p.hi, p.hasTTL = at-jitter.Milliseconds(), at+jitter.Milliseconds(), true
}

// specAbsent returns, for each family of s, the key that would follow its last one, unless
// a family of its database holds it (two families may share a pattern with adjacent ids).
func specAbsent(s *spec.Spec) []record.Record {
	var out []record.Record
	for _, f := range s.Families {
		key := f.AppendKey(nil, f.Keys())
		held := false
		for _, g := range s.Families {
			held = held || (g.DB == f.DB && g.Contains(key))
		}
		if !held && f.Keys() < math.MaxUint64 {
			out = append(out, record.Record{DB: f.DB, Key: key})
		}
	}
	return out
}

// fileExpectation returns what a server that began loading the file of rep at loadMS
// (Unix ms) must hold, when no manifest says more: the file's counts, less the keys expired
// by the time they are read (Redis drops them as it loads the file, and as they expire).
func fileExpectation(rep *FileReport, loadMS int64) expectation {
	live := &liveExpectation{dbs: rep.DBs, clocks: rep.clocks, loadMS: loadMS}
	e := expectation{source: "file", live: live}
	e.dbs, e.lapse = live.at(loadMS)
	return e
}

// holds tells whether the file or server holds key, one of the parts' keys: always, unless
// it is one shard of a cluster dataset and key hashes to a slot of another.
func (e expectation) holds(key []byte) bool {
	return e.shard == nil || e.shard.Owns(cluster.Slot(key))
}

// types returns the number of keys of each type per database that the parts hold, or nil
// when that is not known: in a shard of a cluster dataset, whose keys are of several types.
func (e expectation) types() map[int]map[string]uint64 {
	out := map[int]map[string]uint64{}
	if e.shard != nil && len(e.parts) > 0 {
		for _, p := range e.parts[1:] {
			if p.typ != e.parts[0].typ {
				return nil
			}
		}
		out[0] = map[string]uint64{string(e.parts[0].typ): e.dbs[0].Keys}
		return out
	}
	for _, p := range e.parts {
		if out[p.db] == nil {
			out[p.db] = map[string]uint64{}
		}
		out[p.db][string(p.typ)] += p.count
	}
	return out
}

// expiryRange returns the bounds of the parts' expiries in Unix ms; ok is false when no
// key expires.
func (e expectation) expiryRange() (lo, hi int64, ok bool) {
	for _, p := range e.parts {
		if !p.hasTTL {
			continue
		}
		if !ok || p.lo < lo {
			lo = p.lo
		}
		if !ok || p.hi > hi {
			hi = p.hi
		}
		ok = true
	}
	return lo, hi, ok
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
