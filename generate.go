// Package rdbgen builds Redis datasets offline: it streams deterministic records into RDB
// snapshot files that Redis loads at start-up.
//
// The encoder package writes the file format, the dataset package computes the records, and
// this package joins them. It never prints; long work reports through a Progress callback.
package rdbgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
)

// Progress reports how far a generation has come.
type Progress struct {
	Keys    uint64 // records written so far
	Total   uint64 // records in all
	Members uint64 // collection members written so far
	Bytes   int64  // bytes passed to the destination so far
}

// progressEvery is how many records and members pass between progress reports and checks
// for cancellation.
const progressEvery = 1 << 16

// Result summarises a finished generation.
type Result struct {
	Stats      encoder.Stats
	RDBVersion int
	Target     string
	Duration   time.Duration
}

// Generate writes the dataset d as an RDB file to dst, calling progress (if not nil) every
// few thousand records or members. It stops with ctx's error when ctx is cancelled. dst is
// not closed.
func Generate(ctx context.Context, dst io.Writer, d *dataset.Spec, opts encoder.Options, progress func(Progress)) (Result, error) {
	start := time.Now()
	if err := d.Validate(); err != nil {
		return Result{}, err
	}
	w, err := encoder.NewWriter(dst, opts)
	if err != nil {
		return Result{}, err
	}
	if d.Count > 0 {
		if err := w.BeginDB(d.DB, encoder.DBInfo{Keys: d.Count, Expires: d.Expires()}); err != nil {
			return Result{}, err
		}
	}
	g := &generator{ctx: ctx, d: d, progress: progress, stats: w.Stats,
		pick: func([]byte) *encoder.Writer { return w }}
	if err := g.run(); err != nil {
		return Result{}, err
	}
	if err := w.Close(); err != nil {
		return Result{}, err
	}
	g.report()
	return resultOf(w, start), nil
}

// A generator holds the state of one generation.
type generator struct {
	ctx context.Context
	d   *dataset.Spec
	// pick returns the writer of a key: the one file's, or the key's shard's.
	pick func(key []byte) *encoder.Writer
	// stats returns what has been written so far, for progress reports.
	stats    func() encoder.Stats
	progress func(Progress)
	ticks    int
	name     []byte // scratch for member names
	value    []byte // scratch for hash values
}

// run writes every record of the dataset, each to the writer pick gives for its key. It
// stops with ctx's error when ctx is cancelled.
func (g *generator) run() error {
	d := g.d
	c := d.Cursor()
	for c.Next() {
		w := g.pick(c.Key())
		var err error
		if d.Type.IsString() {
			err = w.WriteString(c.Key(), c.Value(), c.ExpireAtMS())
		} else {
			err = g.writeCollection(w, c.Index(), c.Key(), c.ExpireAtMS())
		}
		if err == nil {
			err = g.tick()
		}
		if err != nil {
			if errors.Is(err, g.ctx.Err()) {
				return err
			}
			return fmt.Errorf("write key %q: %w", c.Key(), err)
		}
	}
	return g.ctx.Err()
}

// tick counts a record or member, and every progressEvery of them reports progress and
// checks for cancellation.
func (g *generator) tick() error {
	g.ticks++
	if g.ticks < progressEvery {
		return nil
	}
	g.ticks = 0
	if err := g.ctx.Err(); err != nil {
		return err
	}
	g.report()
	return nil
}

// report passes the counts so far to the progress callback, if there is one.
func (g *generator) report() { report(g.progress, g.d.Count, g.stats) }

// report passes the counts that stats returns, out of total records (0: unknown), to
// progress, if there is one.
func report(progress func(Progress), total uint64, stats func() encoder.Stats) {
	if progress != nil {
		s := stats()
		progress(Progress{Keys: s.Keys, Total: total, Members: s.Members, Bytes: s.Bytes})
	}
}

// writeCollection writes collection record i to w.
func (g *generator) writeCollection(w *encoder.Writer, i uint64, key []byte, expireAtMS int64) error {
	d := g.d
	n := d.MemberCount(i)
	var err error
	switch d.Type {
	case dataset.TypeHash:
		err = w.BeginHash(key, n, expireAtMS)
	case dataset.TypeList:
		err = w.BeginList(key, n, expireAtMS)
	case dataset.TypeSet:
		err = w.BeginSet(key, n, expireAtMS)
	case dataset.TypeZSet:
		err = w.BeginZSet(key, n, expireAtMS)
	}
	for j := uint64(0); j < n && err == nil; j++ {
		g.name = d.AppendMember(g.name[:0], i, j)
		switch d.Type {
		case dataset.TypeHash:
			g.value = d.AppendFieldValue(g.value[:0], i, j)
			err = w.AddField(g.name, g.value)
		case dataset.TypeList:
			err = w.AddElement(g.name)
		case dataset.TypeSet:
			err = w.AddMember(g.name)
		case dataset.TypeZSet:
			err = w.AddScoredMember(g.name, d.Score(i, j, n))
		}
		if err == nil {
			err = g.tick()
		}
	}
	if err != nil {
		return err
	}
	return w.EndCollection()
}
