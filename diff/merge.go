package diff

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sync"
)

// found is what the merge of the runs found: counts per db, and the first differing keys.
type found struct {
	perDB map[uint32]*DBCounts
	diffs uint64
	keys  map[uint64]*Key // by key hash, names to be filled in
	order []uint64        // the key hashes of keys, ascending
}

// dbs returns the counts, by db.
func (f *found) dbs() []DBCounts {
	var out []DBCounts
	for _, db := range slices.Sorted(maps.Keys(f.perDB)) {
		out = append(out, *f.perDB[db])
	}
	return out
}

// count returns the counts of db.
func (f *found) count(db uint32) *DBCounts {
	c := f.perDB[db]
	if c == nil {
		c = &DBCounts{DB: int(db)}
		f.perDB[db] = c
	}
	return c
}

// note counts a differing key and keeps it while fewer than limit are kept.
func (f *found) note(k *Key, kh uint64, limit int) {
	f.diffs++
	if len(f.order) < limit {
		f.keys[kh] = k
		f.order = append(f.order, kh)
	}
}

// merge compares the runs of the two sides partition by partition, on two goroutines (the
// even and the odd partitions), and keeps the limit differing keys of smallest key hash.
func merge(ctx context.Context, sides [2]*runs, opts Options, limit int) (*found, error) {
	var parts [2]*found
	var errs [2]error
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			parts[g], errs[g] = mergeParts(ctx, sides, opts, limit, g, 2)
		})
	}
	wg.Wait()
	if err := cmp.Or(errs[0], errs[1]); err != nil {
		return nil, err
	}
	all := &found{perDB: parts[0].perDB, diffs: parts[0].diffs + parts[1].diffs, keys: map[uint64]*Key{}}
	for db, c := range parts[1].perDB {
		t := all.count(db)
		t.Same, t.OnlyA, t.OnlyB, t.Changed = t.Same+c.Same, t.OnlyA+c.OnlyA, t.OnlyB+c.OnlyB, t.Changed+c.Changed
	}
	order := slices.Sorted(slices.Values(slices.Concat(parts[0].order, parts[1].order)))
	for _, kh := range order[:min(limit, len(order))] {
		k := parts[0].keys[kh]
		if k == nil {
			k = parts[1].keys[kh]
		}
		all.keys[kh] = k
		all.order = append(all.order, kh)
	}
	return all, nil
}

// mergeParts compares partitions from, from+step, and so on.
func mergeParts(ctx context.Context, sides [2]*runs, opts Options, limit, from, step int) (*found, error) {
	f := &found{perDB: map[uint32]*DBCounts{}, keys: map[uint64]*Key{}}
	var xs, ys []entry
	var raw []byte
	byKey := func(x, y entry) int { return cmp.Compare(x.Key, y.Key) }
	for p := from; p < runParts; p += step {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var err error
		if xs, raw, err = sides[0].load(p, xs, raw); err != nil {
			return nil, err
		}
		if ys, raw, err = sides[1].load(p, ys, raw); err != nil {
			return nil, err
		}
		slices.SortFunc(xs, byKey)
		slices.SortFunc(ys, byKey)
		i, j := 0, 0
		for i < len(xs) || j < len(ys) {
			switch {
			case j == len(ys) || (i < len(xs) && xs[i].Key < ys[j].Key):
				x := &xs[i]
				f.count(x.DB).OnlyA++
				f.note(&Key{DB: int(x.DB), Kind: OnlyA, A: side(x)}, x.Key, limit)
				i++
			case i == len(xs) || ys[j].Key < xs[i].Key:
				y := &ys[j]
				f.count(y.DB).OnlyB++
				f.note(&Key{DB: int(y.DB), Kind: OnlyB, B: side(y)}, y.Key, limit)
				j++
			default:
				x, y := &xs[i], &ys[j]
				if what := differs(x, y, opts); len(what) > 0 {
					f.count(x.DB).Changed++
					f.note(&Key{DB: int(x.DB), Kind: Changed, Fields: what, A: side(x), B: side(y)}, x.Key, limit)
				} else {
					f.count(x.DB).Same++
				}
				i++
				j++
			}
		}
	}
	return f, nil
}

// side is the view of e in a Key.
func side(e *entry) *Side { return &Side{Type: typeOf(e.Type), ExpireAtMS: e.Expiry} }

// differs lists what differs between x and y, the entries of one key.
func differs(x, y *entry, opts Options) []string {
	var what []string
	if x.Type != y.Type {
		what = append(what, "type")
	} else if !opts.KeysOnly && x.Value != y.Value {
		what = append(what, "value")
	}
	if opts.KeysOnly || opts.IgnoreTTL {
		return what
	}
	if x.Expiry != y.Expiry {
		what = append(what, "expiry")
	}
	if x.FieldTTLs != y.FieldTTLs {
		what = append(what, "field_ttls")
	}
	return what
}
