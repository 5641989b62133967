package output

import (
	"context"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// Write writes every record of src to dst as one RDB file, or with opts.RESP as the commands
// that make the records, as File writes to standard output: dst is not closed, nothing is
// written but to dst (a manifest only when opts.Manifest names one), and what dst received
// before an error stays there. It stops with ctx's error when ctx is cancelled. A dst that
// is a pipe is made to hold a whole buffer of the writer where the system allows (see
// internal/pipe).
func Write(ctx context.Context, dst io.Writer, src record.Source, opts Options) (*Result, error) {
	opts.Stdout = dst
	o, err := File("-", opts)
	if err != nil {
		return nil, err
	}
	return o.Write(ctx, src, nil)
}

// WriteShards writes every record of src split by hash slot, as Shards writes the files of a
// split, to dsts: a record goes to dsts[s], where s is the shard of layout that owns its
// key's slot. The destinations are not closed, and no manifest is written. When src is a
// record.KeyLister, every file declares its exact RESIZEDB counts: filled in last into
// cluster.File destinations (see cluster.CanFill), else counted in a first pass over the
// keys alone (on every CPU at once for a record.PartLister, as generated datasets and spec
// files are).
//
// A nil destination leaves its shard unwritten: the records of the others are kept (a
// cluster.Filter), and their files are byte for byte those of the whole split. Result.Shards
// holds the shards written, and Result.Stats adds them up.
func WriteShards(ctx context.Context, dsts []io.Writer, src record.Source, layout *cluster.Layout, opts Options) (*Result, error) {
	if opts.RESP != nil {
		return nil, ErrRESPShards
	}
	now := time.Now()
	bufSize := opts.Encoder.BufferSize
	if bufSize == 0 {
		bufSize = encoder.DefaultBufferSize
	}
	opts.NoManifest = true
	o, err := newShards(toWriters(dsts, layout, bufSize), stamped(opts, now), now)
	if err != nil {
		return nil, err
	}
	return o.Write(ctx, src, nil)
}
