package rdbgen

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/spec"
)

// Cluster datasets: every record source can be split by hash slot into one file per shard
// of a cluster.Layout, all written in one pass through a cluster.Writer (a record.Sink).
// Before that pass, the sources whose keys are known up front (the built-in dataset, spec
// files) count each shard's keys in a first pass over the keys alone, so that every file
// starts with its exact RESIZEDB counts, which let Redis size its tables before loading. The
// price is hashing every key twice; the first pass takes a small part of the time of the
// second (BenchmarkClusterSplit). Imports stream their input once: their shard files have no
// RESIZEDB hint. Memory stays bounded by the number of shards. Every file holds db 0 only.

// ClusterResult summarises a generation split into the shards of a cluster.
type ClusterResult struct {
	// Shards holds each shard file's counts, in the layout's order.
	Shards []encoder.Stats
	// Total adds up the shards' keys, expiries, members and bytes (it has no checksum).
	Total      encoder.Stats
	RDBVersion int
	Target     string
	// Duration is the whole generation's time; CountDuration the part of it spent on the
	// first pass that counts each shard's keys (0 for imports).
	Duration, CountDuration time.Duration
}

// GenerateCluster writes the dataset d split by hash slot: record i goes to dsts[s], where
// s is the shard of layout that owns the slot of record i's key. d must be in db 0 (an
// error wrapping cluster.ErrDB otherwise). progress (if not nil) is called every few
// thousand records; ctx cancels as in Generate. The destinations are not closed.
func GenerateCluster(ctx context.Context, dsts []io.Writer, d *dataset.Spec, layout *cluster.Layout, opts encoder.Options, progress func(Progress)) (ClusterResult, error) {
	start := time.Now()
	if err := d.Validate(); err != nil {
		return ClusterResult{}, err
	}
	if d.DB != 0 {
		return ClusterResult{}, fmt.Errorf("%w: the dataset is in db %d", cluster.ErrDB, d.DB)
	}
	counts, err := countDataset(ctx, d, layout)
	if err != nil {
		return ClusterResult{}, err
	}
	return writeShards(dsts, layout, opts, counts, start, func(w *cluster.Writer) error {
		g := &generator{ctx: ctx, d: d, pick: w.Shard, stats: w.Total, progress: progress}
		if err := g.run(); err != nil {
			return err
		}
		g.report()
		return nil
	})
}

// GenerateSpecCluster writes the records of the spec file s split by hash slot, as
// GenerateCluster does. Every family must be in db 0.
func GenerateSpecCluster(ctx context.Context, dsts []io.Writer, s *spec.Spec, layout *cluster.Layout, opts encoder.Options, progress func(Progress)) (ClusterResult, error) {
	start := time.Now()
	for _, f := range s.Families {
		if f.DB != 0 {
			return ClusterResult{}, fmt.Errorf("%w: family %s is in db %d", cluster.ErrDB, f.Name, f.DB)
		}
	}
	counts, err := countSpec(ctx, s, layout)
	if err != nil {
		return ClusterResult{}, err
	}
	total := s.Keys()
	return writeShards(dsts, layout, opts, counts, start, func(w *cluster.Writer) error {
		return s.Generate(ctx, w, func(uint64) { report(progress, total, w.Total) })
	})
}

// ImportCluster writes the records that open's Reader yields split by hash slot, as Import
// and GenerateCluster do. A record of a db other than 0 fails the import with an error
// wrapping cluster.ErrDB.
func ImportCluster(ctx context.Context, dsts []io.Writer, open func() (importer.Reader, error), opts importer.Options, layout *cluster.Layout, encOpts encoder.Options, progress func(Progress)) (ClusterResult, importer.Stats, error) {
	var stats importer.Stats
	res, err := writeShards(dsts, layout, encOpts, nil, time.Now(), func(w *cluster.Writer) error {
		var err error
		stats, err = importer.Copy(ctx, w, open, opts, func(importer.Stats) { report(progress, 0, w.Total) })
		return err
	})
	return res, stats, err
}

// writeShards runs emit on a cluster.Writer over dsts whose shards declare counts (nil:
// unknown), closes the Writer and summarises the run begun at start.
func writeShards(dsts []io.Writer, layout *cluster.Layout, opts encoder.Options, counts []encoder.DBInfo, start time.Time, emit func(*cluster.Writer) error) (ClusterResult, error) {
	countTime := time.Duration(0)
	if counts != nil {
		countTime = time.Since(start)
	}
	w, err := cluster.NewWriter(dsts, layout, cluster.WriterOptions{Encoder: opts, Counts: counts})
	if err != nil {
		return ClusterResult{}, err
	}
	if err := emit(w); err != nil {
		return ClusterResult{}, err
	}
	if err := w.Close(); err != nil {
		return ClusterResult{}, err
	}
	return ClusterResult{
		Shards:        w.Stats(),
		Total:         w.Total(),
		RDBVersion:    w.RDBVersion(),
		Target:        w.Target().Name,
		Duration:      time.Since(start),
		CountDuration: countTime,
	}, nil
}
