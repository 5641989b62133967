package memory

import "github.com/rdbgen/rdbgen/record"

// Scale returns r, the estimate of a sample, as it would be for a dataset f times as large
// whose databases hold counts: the memory of keys, values and members grows by f, and every
// database's dict bucket arrays are sized anew for its counts, as RESIZEDB sizes them. It
// serves estimates of datasets too large to walk whole (a spec file scaled down, then back
// up); a sample's key and member costs stand for the whole dataset's.
func (r Result) Scale(f float64, counts map[int]record.Counts) Result {
	mul := func(b int64) int64 { return int64(float64(b) * f) }
	mulKeys := func(n uint64) uint64 { return uint64(float64(n) * f) }
	a, err := allocatorNamed(r.Allocator)
	if err != nil { // not a Result of this package
		a = jemalloc
	}
	out := Result{Target: r.Target, Allocator: r.Allocator}
	for _, d := range r.DBs {
		c := counts[d.DB]
		full := dbUsage{DBUsage: DBUsage{DB: d.DB, Keys: c.Keys, Expires: c.Expires}, hintKeys: c.Keys, hintExpires: c.Expires, resized: true}
		full.Tables = full.tables(a)
		full.Bytes = mul(d.Bytes-d.Tables) + full.Tables
		out.DBs = append(out.DBs, full.DBUsage)
		out.Bytes += full.Bytes
		out.Keys += full.Keys
		out.Expires += full.Expires
		out.Tables += full.Tables
	}
	for _, t := range r.Types {
		out.Types = append(out.Types, TypeUsage{t.Type, Usage{Keys: mulKeys(t.Keys), Bytes: mul(t.Bytes)}})
	}
	for _, e := range r.Encodings {
		out.Encodings = append(out.Encodings, EncodingUsage{e.Type, e.Encoding, Usage{Keys: mulKeys(e.Keys), Bytes: mul(e.Bytes)}})
	}
	return out
}
