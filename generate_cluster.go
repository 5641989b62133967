package rdbgen

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
)

// ClusterResult summarises a generation split into the shards of a cluster.
type ClusterResult struct {
	// Shards holds each shard file's counts, in the layout's order.
	Shards []encoder.Stats
	// Total adds up the shards' keys, expiries and bytes (it has no checksum).
	Total      encoder.Stats
	RDBVersion int
	Target     string
	// Duration is the whole generation's time; CountDuration the part of it spent on the
	// first pass that counts each shard's keys.
	Duration, CountDuration time.Duration
}

// GenerateCluster writes the dataset d split by hash slot: record i goes to dsts[s], where
// s is the shard of layout that owns the slot of record i's key. Every file holds db 0, so d
// must be in db 0 (an error wrapping cluster.ErrDB otherwise).
//
// It makes two passes over the keys. The first computes only keys and their slots, to count
// each shard's keys; the second writes the records, all shards at once. So each file starts
// with its exact RESIZEDB counts, which let Redis size its tables before loading, at the
// price of hashing every key twice (the first pass takes a small part of the time of the
// second; Progress reports the second). Memory stays bounded by the number of shards.
//
// progress (if not nil) is called every few thousand records; ctx cancels as in Generate.
// The destinations are not closed.
func GenerateCluster(ctx context.Context, dsts []io.Writer, d *dataset.Spec, layout *cluster.Layout, opts encoder.Options, progress func(Progress)) (ClusterResult, error) {
	start := time.Now()
	if err := d.Validate(); err != nil {
		return ClusterResult{}, err
	}
	if d.DB != 0 {
		return ClusterResult{}, fmt.Errorf("%w: the dataset is in db %d", cluster.ErrDB, d.DB)
	}
	counts, err := countShards(ctx, d, layout)
	if err != nil {
		return ClusterResult{}, err
	}
	countTime := time.Since(start)
	w, err := cluster.NewWriter(dsts, layout, cluster.WriterOptions{Encoder: opts, Counts: counts})
	if err != nil {
		return ClusterResult{}, err
	}
	g := &generator{ctx: ctx, d: d, pick: w.Shard, stats: w.Total, progress: progress}
	if err := g.run(); err != nil {
		return ClusterResult{}, err
	}
	if err := w.Close(); err != nil {
		return ClusterResult{}, err
	}
	g.report()
	return ClusterResult{
		Shards:        w.Stats(),
		Total:         w.Total(),
		RDBVersion:    w.RDBVersion(),
		Target:        w.Target().Name,
		Duration:      time.Since(start),
		CountDuration: countTime,
	}, nil
}

// countShards counts the keys of d that each shard of layout will hold. It walks the keys
// alone (random values are not computed), in as many parts at once as there are CPUs.
func countShards(ctx context.Context, d *dataset.Spec, layout *cluster.Layout) ([]encoder.DBInfo, error) {
	parts := uint64(runtime.GOMAXPROCS(0))
	if d.Count < 1<<20 {
		parts = 1
	}
	counters := make([]*cluster.Counter, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := d.Count*p/parts, d.Count*(p+1)/parts
		// Record lo+j of d is record j of part: the same key, with no value to draw.
		part := *d
		part.KeyStart, part.Count = d.KeyStart+lo, hi-lo
		part.Value, part.ValueSize = dataset.ValueSame, 0
		counters[p] = cluster.NewCounter(layout)
		wg.Go(func() { countKeys(ctx, &part, counters[p]) })
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

// countKeys adds the keys of d to counter, until ctx is cancelled.
func countKeys(ctx context.Context, d *dataset.Spec, counter *cluster.Counter) {
	expires := d.Expires() > 0
	c := d.Cursor()
	for c.Next() {
		counter.Add(c.Key(), expires)
		if c.Index()%progressEvery == progressEvery-1 && ctx.Err() != nil {
			return
		}
	}
}
