package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// newerFlag is --drop-newer, of the commands that read a dump into an output or compare
// dumps (convert, import, load, export, merge, diff): what becomes of the parts of Redis
// 8.6+ records no earlier format holds. inspect and verify read past them, counting them.
func newerFlag() cli.Flag {
	return &cli.BoolFlag{Name: "drop-newer", Category: "Functions",
		Usage: "read Redis 8.6+ records without what no earlier format holds (a stream's idempotent-producer metadata and NACK zone, a key's module metadata, arrays: the key left out), counting what was dropped, instead of stopping with an error naming the key"}
}

// newerCounted is a dump read by diff or merge that keeps what --drop-newer left out of it.
type newerCounted struct {
	decoder.File
	dropped map[string]uint64
}

// WriteTo reads the dump into sink and keeps the reader's count of what it dropped.
func (f *newerCounted) WriteTo(ctx context.Context, sink record.Sink) error {
	rd, err := f.File.Read(ctx, sink)
	if rd != nil {
		f.dropped = rd.Stats().NewerDropped
	}
	return err
}

// newerTotal adds up what --drop-newer left out of the dumps; nil when nothing.
func newerTotal(files []*newerCounted) map[string]uint64 {
	var total map[string]uint64
	for _, f := range files {
		for what, n := range f.dropped {
			if total == nil {
				total = map[string]uint64{}
			}
			total[what] += n
		}
	}
	return total
}
