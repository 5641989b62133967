package cluster

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/rdbgen/rdbgen/record"
)

// A PartLister is a record.KeyLister that can also list its keys in parts, concurrently:
// ListKeysPart lists part part of parts (0 <= part < parts), and the parts together list
// every key once. CountShards counts such a source's keys on every CPU at once. Generated
// datasets and spec files are PartListers.
type PartLister interface {
	record.KeyLister
	ListKeysPart(ctx context.Context, part, parts int, fn func(db int, key []byte, expires bool)) error
}

// partsFrom is the number of keys from which a PartLister is counted in parts.
const partsFrom = 1 << 20

// CountShards counts the keys of src that each shard of layout will hold, for
// WriterOptions.Counts, in one pass over its keys alone: in as many parts at once as there
// are CPUs when src is a PartLister of a million keys or more. A key of a db other than 0 is
// an error wrapping ErrDB.
func CountShards(ctx context.Context, src record.KeyLister, layout *Layout) ([]record.Counts, error) {
	parts := 1
	pl, ok := src.(PartLister)
	if sz, sized := src.(record.Sizer); ok && sized && sz.Len() >= partsFrom {
		parts = runtime.GOMAXPROCS(0)
	}
	counters := make([]*Counter, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		c := NewCounter(layout)
		counters[p] = c
		var badDB error
		add := func(db int, key []byte, expires bool) {
			if db != 0 && badDB == nil {
				badDB = fmt.Errorf("%w: records of db %d", ErrDB, db)
			}
			c.Add(key, expires)
		}
		wg.Go(func() {
			if parts == 1 {
				errs[p] = src.ListKeys(ctx, add)
			} else {
				errs[p] = pl.ListKeysPart(ctx, p, parts, add)
			}
			if errs[p] == nil {
				errs[p] = badDB
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	counts := counters[0].Counts()
	for _, c := range counters[1:] {
		for i, n := range c.Counts() {
			counts[i].Add(n)
		}
	}
	return counts, nil
}
