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

// mergeParts compares partitions from, from+step, and so on: a partition of A goes into a
// hash table by key hash, B's entries are looked up in it (no sort: a partition's order
// does not matter), and only the differing keys of a partition are sorted, by key hash, to
// keep the smallest.
func mergeParts(ctx context.Context, sides [2]*runs, opts Options, limit, from, step int) (*found, error) {
	f := &found{perDB: map[uint32]*DBCounts{}, keys: map[uint64]*Key{}}
	var xs, ys []entry
	var raw []byte
	var tab []int32 // indexes in xs, plus 1; 0 is an empty slot
	var hits []hit
	var what []string
	var matched []bool // of xs: whether B holds the key
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
		size := 16
		for size < 2*len(xs) {
			size *= 2
		}
		if len(tab) != size {
			tab = make([]int32, size)
		} else {
			clear(tab)
		}
		mask := uint64(size - 1)
		for i := range xs {
			s := xs[i].Key & mask
			for tab[s] != 0 {
				s = (s + 1) & mask
			}
			tab[s] = int32(i + 1)
		}
		if cap(matched) < len(xs) {
			matched = make([]bool, len(xs))
		}
		matched = matched[:len(xs)]
		clear(matched)
		hits = hits[:0]
		open := len(f.order) < limit // once full, later partitions hold larger hashes
		for j := range ys {
			y := &ys[j]
			s := y.Key & mask
			for tab[s] != 0 && xs[tab[s]-1].Key != y.Key {
				s = (s + 1) & mask
			}
			if tab[s] == 0 {
				f.count(y.DB).OnlyB++
				f.diffs++
				if open {
					hits = append(hits, hit{y.Key, -1, int32(j)})
				}
				continue
			}
			x := &xs[tab[s]-1]
			matched[tab[s]-1] = true
			if what = differs(what[:0], x, y, opts); len(what) > 0 {
				f.count(x.DB).Changed++
				f.diffs++
				if open {
					hits = append(hits, hit{x.Key, tab[s] - 1, int32(j)})
				}
			} else {
				f.count(x.DB).Same++
			}
		}
		for i := range xs {
			if !matched[i] {
				x := &xs[i]
				f.count(x.DB).OnlyA++
				f.diffs++
				if open {
					hits = append(hits, hit{x.Key, int32(i), -1})
				}
			}
		}
		slices.SortFunc(hits, func(a, b hit) int { return cmp.Compare(a.kh, b.kh) })
		for _, h := range hits[:min(len(hits), limit-len(f.order))] {
			f.keys[h.kh] = h.key(xs, ys, opts)
			f.order = append(f.order, h.kh)
		}
	}
	return f, nil
}

// A hit is a differing key of a partition: its key hash and its entries' indexes in the
// partition of each side (-1: none). Its Key is made only when it is among those named.
type hit struct {
	kh   uint64
	x, y int32
}

// key returns the Key of h, whose entries are in xs and ys.
func (h hit) key(xs, ys []entry, opts Options) *Key {
	switch {
	case h.x < 0:
		y := &ys[h.y]
		return &Key{DB: int(y.DB), Kind: OnlyB, B: side(y)}
	case h.y < 0:
		x := &xs[h.x]
		return &Key{DB: int(x.DB), Kind: OnlyA, A: side(x)}
	}
	x, y := &xs[h.x], &ys[h.y]
	return &Key{DB: int(x.DB), Kind: Changed, Fields: differs(nil, x, y, opts), A: side(x), B: side(y)}
}

// side is the view of e in a Key.
func side(e *entry) *Side { return &Side{Type: typeOf(e.Type), ExpireAtMS: e.Expiry} }

// differs appends to what what differs between x and y, the entries of one key.
func differs(what []string, x, y *entry, opts Options) []string {
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
