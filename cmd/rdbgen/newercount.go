package main

import (
	"context"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

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
