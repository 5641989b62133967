package rdbgen

import (
	"context"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/spec"
)

// GenerateSpec writes the records of the spec file s, under its Params, as an RDB file to
// dst: the databases in ascending order, in each the families in file order. It calls
// progress (if not nil) every few thousand records and stops with ctx's error when ctx is
// cancelled. dst is not closed.
func GenerateSpec(ctx context.Context, dst io.Writer, s *spec.Spec, opts encoder.Options, progress func(Progress)) (Result, error) {
	total := s.Keys()
	return writeFile(dst, opts, func(w *encoder.Writer) error {
		return s.Generate(ctx, w, func(uint64) { report(progress, total, w.Stats) })
	})
}

// writeFile runs emit on a Writer over dst, closes the Writer and summarises.
func writeFile(dst io.Writer, opts encoder.Options, emit func(*encoder.Writer) error) (Result, error) {
	start := time.Now()
	w, err := encoder.NewWriter(dst, opts)
	if err != nil {
		return Result{}, err
	}
	if err := emit(w); err != nil {
		return Result{}, err
	}
	if err := w.Close(); err != nil {
		return Result{}, err
	}
	return resultOf(w, start), nil
}

// resultOf summarises the closed Writer w, started at start.
func resultOf(w *encoder.Writer, start time.Time) Result {
	return Result{
		Stats:      w.Stats(),
		RDBVersion: w.RDBVersion(),
		Target:     w.Target().Name,
		Duration:   time.Since(start),
	}
}
