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
	g := &generator{ctx: ctx, d: d, w: w, progress: progress}
	c := d.Cursor()
	for c.Next() {
		if d.Type.IsString() {
			err = w.WriteString(c.Key(), c.Value(), c.ExpireAtMS())
		} else {
			err = g.writeCollection(c.Index(), c.Key(), c.ExpireAtMS())
		}
		if err == nil {
			err = g.tick()
		}
		if err != nil {
			if errors.Is(err, ctx.Err()) {
				return Result{}, err
			}
			return Result{}, fmt.Errorf("write key %q: %w", c.Key(), err)
		}
	}
	if err := ctx.Err(); err != nil {
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
	ctx      context.Context
	d        *dataset.Spec
	w        *encoder.Writer
	progress func(Progress)
	ticks    int
	name     []byte // scratch for member names
	value    []byte // scratch for hash values
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

func (g *generator) report() {
	if g.progress != nil {
		s := g.w.Stats()
		g.progress(Progress{Keys: s.Keys, Total: g.d.Count, Members: s.Members, Bytes: s.Bytes})
	}
}

// writeCollection writes collection record i.
func (g *generator) writeCollection(i uint64, key []byte, expireAtMS int64) error {
	d, w := g.d, g.w
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
