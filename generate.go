// Package rdbgen builds Redis datasets offline: it streams deterministic records into RDB
// snapshot files that Redis loads at start-up.
//
// The encoder package writes the file format, the dataset package computes the records, and
// this package joins them. It never prints; long work reports through a Progress callback.
package rdbgen

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
)

// Progress reports how far a generation has come.
type Progress struct {
	Keys  uint64 // records written so far
	Total uint64 // records in all
	Bytes int64  // bytes passed to the destination so far
}

// progressEvery is how many records pass between progress reports and checks for cancellation.
const progressEvery = 1 << 16

// Result summarises a finished generation.
type Result struct {
	Stats      encoder.Stats
	RDBVersion int
	Target     string
	Duration   time.Duration
}

// Generate writes the dataset d as an RDB file to dst, calling progress (if not nil) every
// few thousand records. It stops with ctx's error when ctx is cancelled. dst is not closed.
func Generate(ctx context.Context, dst io.Writer, d *dataset.Strings, opts encoder.Options, progress func(Progress)) (Result, error) {
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
	report := func() {
		if progress != nil {
			s := w.Stats()
			progress(Progress{Keys: s.Keys, Total: d.Count, Bytes: s.Bytes})
		}
	}
	if err := writeRecords(ctx, d, func([]byte) *encoder.Writer { return w }, report); err != nil {
		return Result{}, err
	}
	if err := w.Close(); err != nil {
		return Result{}, err
	}
	report()
	return Result{
		Stats:      w.Stats(),
		RDBVersion: w.RDBVersion(),
		Target:     w.Target().Name,
		Duration:   time.Since(start),
	}, nil
}

// writeRecords writes every record of d, each to the writer that pick returns for its key,
// calling report every progressEvery records. It stops with ctx's error when ctx is
// cancelled.
func writeRecords(ctx context.Context, d *dataset.Strings, pick func(key []byte) *encoder.Writer, report func()) error {
	c := d.Cursor()
	for c.Next() {
		if err := pick(c.Key()).WriteString(c.Key(), c.Value(), c.ExpireAtMS()); err != nil {
			return fmt.Errorf("write key %q: %w", c.Key(), err)
		}
		if c.Index()%progressEvery == progressEvery-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
			report()
		}
	}
	return ctx.Err()
}
