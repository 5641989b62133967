package rdbgen

import (
	"context"
	"io"
	"slices"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/pipe"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// bufferSize is the size of the writes of an encoder with opts.
func bufferSize(opts encoder.Options) int {
	if opts.BufferSize == 0 {
		return encoder.DefaultBufferSize
	}
	return opts.BufferSize
}

// Write writes every record of src as one RDB file to dst and closes the file's encoder
// (not dst). It stops with ctx's error when ctx is cancelled; errors are the source's or
// the encoder's as they are (the encoder's name the key). A dst that is a pipe is made to
// hold a whole buffer of the encoder where the system allows (see internal/pipe).
func Write(ctx context.Context, dst io.Writer, src record.Source, opts Options) (Result, error) {
	start := time.Now()
	pipe.Grow(dst, bufferSize(opts.Encoder))
	p := newProgress(src, opts.Progress)
	w, err := rdbsink.NewWriter(p.writer(dst), opts.Encoder)
	if err != nil {
		return Result{}, err
	}
	if p != nil {
		p.stats = w.Stats
	}
	if err := src.WriteTo(ctx, w); err != nil {
		return Result{}, err
	}
	if err := w.Close(); err != nil {
		return Result{}, err
	}
	p.send()
	return Result{
		Stats:      w.Stats(),
		DBs:        w.DBs(),
		RDBVersion: w.RDBVersion(),
		Target:     w.Target().Name,
		Duration:   time.Since(start),
	}, nil
}

// WriteShards writes every record of src split by hash slot: a record goes to dsts[s],
// where s is the shard of layout that owns its key's slot, and every file holds db 0 (a
// record of another db is an error wrapping cluster.ErrDB). All files are written in one
// pass, in memory bounded by the number of shards.
//
// When src is a record.KeyLister, every file declares its exact RESIZEDB counts. Into files
// (see cluster.CanFill), src is read once: each file's header is written last, with the
// counts its shard got (cluster.WriterOptions.FillCounts). Into other destinations, a
// first pass over the keys alone counts each shard's keys; a source that can also list its
// keys in parts (a cluster.PartLister, as generated datasets and spec files are) is counted on
// every CPU at once. Other sources are read once, and their files have no RESIZEDB hint.
// The destinations are not closed.
//
// A nil destination leaves its shard unwritten: one process of a split that many write side
// by side, each its own shard, reads every record and keeps those of its shards (a
// cluster.Filter), and writes their files byte for byte as the whole split writes them. The
// unwritten shards' Shards stats are zero, and Total counts the written ones.
func WriteShards(ctx context.Context, dsts []io.Writer, src record.Source, layout *cluster.Layout, opts Options) (ClusterResult, error) {
	start := time.Now()
	var written []int // the shards written, when not all are
	if slices.Contains(dsts, nil) {
		dsts = slices.Clone(dsts)
		for i, dst := range dsts {
			if dst == nil {
				dsts[i] = cluster.Discard
			} else {
				written = append(written, i)
			}
		}
	}
	var counts []record.Counts
	var countTime time.Duration
	l, exact := src.(record.KeyLister)
	fill := exact && cluster.CanFill(dsts)
	if exact && !fill {
		var err error
		if counts, err = cluster.CountShards(ctx, l, layout); err != nil {
			return ClusterResult{}, err
		}
		countTime = time.Since(start)
	}
	for _, dst := range dsts {
		pipe.Grow(dst, bufferSize(opts.Encoder))
	}
	p := newProgress(src, opts.Progress)
	if p != nil {
		dsts = slices.Clone(dsts)
		for i, dst := range dsts {
			dsts[i] = p.writer(dst)
		}
	}
	w, err := cluster.NewWriter(dsts, layout, cluster.WriterOptions{Encoder: opts.Encoder, Counts: counts, FillCounts: fill})
	if err != nil {
		return ClusterResult{}, err
	}
	if p != nil {
		p.stats = w.Total
	}
	var sink record.Sink = w
	if written != nil {
		f, err := cluster.NewFilter(w, layout, written...)
		if err != nil {
			return ClusterResult{}, err
		}
		sink = f
		if p != nil { // the keys read, out of the source's: each is looked at
			p.stats = func() encoder.Stats { s := w.Total(); s.Keys = f.Kept + f.Dropped; return s }
		}
	}
	if err := src.WriteTo(ctx, sink); err != nil {
		return ClusterResult{}, err
	}
	if err := w.Close(); err != nil {
		return ClusterResult{}, err
	}
	p.send()
	res := ClusterResult{
		Shards:        w.Stats(),
		Total:         w.Total(),
		RDBVersion:    w.RDBVersion(),
		Target:        w.Target().Name,
		Duration:      time.Since(start),
		CountDuration: countTime,
	}
	if written != nil {
		res.Total = encoder.Stats{}
		for i := range res.Shards {
			if !slices.Contains(written, i) {
				res.Shards[i] = encoder.Stats{}
				continue
			}
			s, t := res.Shards[i], &res.Total
			t.Keys, t.Expires, t.Members, t.Bytes = t.Keys+s.Keys, t.Expires+s.Expires, t.Members+s.Members, t.Bytes+s.Bytes
		}
	}
	return res, nil
}
