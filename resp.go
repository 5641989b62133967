package rdbgen

import (
	"context"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// RESPOptions configure WriteRESP. The zero value works.
type RESPOptions struct {
	// Commands chooses the commands: the server release they are for (resp.TargetVersion
	// turns a target name into one) and the size of each. Default: the newest server.
	Commands resp.Options
	// Progress, if not nil, is called every few thousand records and members. Default nil.
	Progress func(record.Progress)
}

// RESPResult summarises a RESP stream written by WriteRESP.
type RESPResult struct {
	// Stats count the keys, expiries and members sent, and the bytes written (no checksum).
	Stats encoder.Stats
	// DBs holds the keys, and keys with an expiry, of each database that has some.
	DBs map[int]record.Counts
	// Commands is the number of commands written.
	Commands uint64
	Duration time.Duration
	// Streams counts the streams written as RESTORE, since commands could not rebuild
	// them, and what resp.Options.DropLostPending left out.
	Streams resp.StreamCounts
	// Modules counts the module values sent as RESTORE and the module AUX records left out
	// (resp.Options.DropModuleAux).
	Modules resp.ModuleCounts
}

// WriteRESP writes every record of src to dst as the Redis commands that make it, a RESP
// stream that `redis-cli --pipe` sends to a server: the same data the RDB file of src holds
// (see package resp for the commands). dst is not closed.
func WriteRESP(ctx context.Context, dst io.Writer, src record.Source, opts RESPOptions) (RESPResult, error) {
	start := time.Now()
	cw := &countingWriter{w: dst}
	w, err := resp.NewWriter(cw, opts.Commands)
	if err != nil {
		return RESPResult{}, err
	}
	t := newTally(w, func() int64 { return cw.n })
	sink, done := withProgress(t, src, t.stats, opts.Progress)
	if err := src.WriteTo(ctx, sink); err != nil {
		return RESPResult{}, err
	}
	if err := w.Close(); err != nil {
		return RESPResult{}, err
	}
	done()
	return RESPResult{Stats: t.stats(), DBs: t.DBs(), Commands: w.Count(), Duration: time.Since(start), Streams: w.StreamCounts(), Modules: w.ModuleCounts()}, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
