package rdbgen

import (
	"context"
	"runtime"
	"sync"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/spec"
)

// countDataset counts the keys of d that each shard of layout will hold. It walks the keys
// alone: random values are not computed.
func countDataset(ctx context.Context, d *dataset.Spec, layout *cluster.Layout) ([]encoder.DBInfo, error) {
	expires := d.Expires() > 0
	return countInParts(ctx, layout, []uint64{d.Count}, func(_ int, lo, hi uint64, c *cluster.Counter) {
		// Record lo+j of d is record j of part: the same key, with no value to draw.
		part := *d
		part.KeyStart, part.Count = d.KeyStart+lo, hi-lo
		part.Value, part.ValueSize = dataset.ValueSame, 0
		cur := part.Cursor()
		for cur.Next() {
			c.Add(cur.Key(), expires)
			if cur.Index()%progressEvery == progressEvery-1 && ctx.Err() != nil {
				return
			}
		}
	})
}

// countSpec counts the keys of the families of s that each shard of layout will hold.
func countSpec(ctx context.Context, s *spec.Spec, layout *cluster.Layout) ([]encoder.DBInfo, error) {
	sizes := make([]uint64, len(s.Families))
	for i, f := range s.Families {
		sizes[i] = f.Keys()
	}
	return countInParts(ctx, layout, sizes, func(fam int, lo, hi uint64, c *cluster.Counter) {
		f := s.Families[fam]
		var key []byte
		for i := lo; i < hi; i++ {
			key = f.AppendKey(key[:0], i)
			c.Add(key, f.ExpireAtMS(i) > 0)
			if i%progressEvery == progressEvery-1 && ctx.Err() != nil {
				return
			}
		}
	})
}

// countInParts counts keys in as many parts at once as there are CPUs: sizes are the key
// counts of a few sequences, and count(seq, lo, hi, c) adds keys lo to hi-1 of sequence seq
// to c. It returns the sum of the parts' counts, or ctx's error.
func countInParts(ctx context.Context, layout *cluster.Layout, sizes []uint64, count func(seq int, lo, hi uint64, c *cluster.Counter)) ([]encoder.DBInfo, error) {
	parts := uint64(runtime.GOMAXPROCS(0))
	var total uint64
	for _, n := range sizes {
		total += n
	}
	if total < 1<<20 {
		parts = 1
	}
	counters := make([]*cluster.Counter, parts)
	var wg sync.WaitGroup
	for p := range parts {
		counters[p] = cluster.NewCounter(layout)
		wg.Go(func() {
			for seq, n := range sizes {
				if lo, hi := n*p/parts, n*(p+1)/parts; lo < hi {
					count(seq, lo, hi, counters[p])
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	counts := counters[0].Counts()
	for _, c := range counters[1:] {
		for i, n := range c.Counts() {
			counts[i].Keys += n.Keys
			counts[i].Expires += n.Expires
		}
	}
	return counts, nil
}
