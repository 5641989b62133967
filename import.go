package rdbgen

import (
	"context"
	"io"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/importer"
)

// Import writes the records that open's Reader yields as an RDB file to dst (see
// importer.Copy: records of a db together; duplicates and malformed records as opts says).
// progress, if not nil, is called every few thousand records; it stops with ctx's error
// when ctx is cancelled. dst is not closed.
func Import(ctx context.Context, dst io.Writer, open func() (importer.Reader, error), opts importer.Options, encOpts encoder.Options, progress func(Progress)) (Result, importer.Stats, error) {
	var stats importer.Stats
	res, err := writeFile(dst, encOpts, func(w *encoder.Writer) error {
		var err error
		stats, err = importer.Copy(ctx, w, open, opts, func(importer.Stats) { report(progress, 0, w.Stats) })
		return err
	})
	return res, stats, err
}
