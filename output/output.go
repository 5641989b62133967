// Package output is rdbgen's output on disk: one RDB file (File), the files of a Redis
// Cluster split in a directory, one per shard (Shards, Shard), or a stream of RESP commands
// (File with Options.RESP); each RDB file with its manifest beside it.
//
// An Output gives the record.Sink the records go into; then Commit puts the files in place
// with their manifests, or Abort removes what was written. Write does all three for a
// record.Source. The rules of the files on disk are kept here:
//
//   - A file is written to a temporary file in its directory, synced, and renamed into place
//     only once complete: an error or an interruption never leaves a truncated file at the
//     path, and never replaces a good one.
//   - An existing file (or manifest, or shard files in the directory) is replaced only with
//     Options.Force; otherwise it is an error wrapping ErrExists, checked before
//     anything is written and again when the file is put in place.
//   - A file and its manifest are put in place together, under a lock on their directory,
//     so that two runs writing the same paths leave the pair of one of them.
//   - The path "-" is standard output, and a path that is a FIFO or a character device is
//     written into as a stream (Output.Stream): what it received before an error stays.
//
// The package never prints: long work reports through Options.Progress.
package output

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// Options configure File, Shards and Shard. The zero value works: an RDB file for the
// encoder's default target, its manifest beside it, no existing file replaced.
type Options struct {
	// Encoder configures the RDB writer of the file, or of every shard file. A zero CreatedAt
	// is set to the time the output is created, so that the file and its manifest agree.
	Encoder encoder.Options
	// RESP, if not nil, makes File write the Redis commands that make the records (see
	// package resp) instead of an RDB file, with no manifest. Shards refuse it.
	RESP *resp.Options
	// Force replaces existing files: the file, its manifest, the shard files in a directory
	// (and removes those beyond the new layout). Default false: an existing one is an error
	// wrapping ErrExists, and it is left as it was.
	Force bool
	// Manifest is the path of File's manifest. Default: the file's path with
	// manifest.Suffix; none for standard output, a FIFO or a device. Shards put each
	// shard's manifest beside its file.
	Manifest string
	// NoManifest writes no manifest at all. Default false.
	NoManifest bool
	// KeepOwner gives a file that replaces another the owner of the one it replaces, when
	// run as root (an image's entrypoint that rewrites a dump in place, then drops to the
	// server's user). Default false: the file belongs to the user who runs.
	KeepOwner bool
	// Stdout is where File writes for the path "-". Default os.Stdout.
	Stdout io.Writer
	// Progress, if not nil, is called with the counts so far each time the encoder writes
	// its buffer out (every MiB by default; RESP: every few thousand records and members),
	// and once when the records end. Default nil: no reports.
	Progress func(record.Progress)
	// Total is the number of records to come, reported as record.Progress.Total (0:
	// unknown). Write sets it from a record.Sizer source.
	Total uint64
	// Layout, if not nil, makes Open write the split of the records by hash slot into the
	// directory its path names: every shard's file (Shards), or the one of Shard. Default nil:
	// one file (File).
	Layout *cluster.Layout
	// Shard, with Layout, is the index of the one shard Open writes (see Shard); default nil,
	// every shard.
	Shard *int
}

// A Result is what an Output wrote.
type Result struct {
	// Path is the file (or "-"), or the directory of the shard files.
	Path string
	// Manifest is the file's manifest path; empty when none was written, and for shards,
	// whose manifests are in Shards.
	Manifest string
	// Stats count the keys, expiring keys, members and bytes written (of all the shards
	// written), and the checksum of one file.
	Stats encoder.Stats
	// DBs holds the keys, and keys with an expiry, of each database that has some.
	DBs        map[int]record.Counts
	Target     string
	RDBVersion int // 0 for RESP
	// Shards are the shard files written, by index: every shard of the layout, or the one of
	// Shard. Nil for one file.
	Shards []ShardResult
	// Removed lists the shard files of an earlier, larger split that Force removed.
	Removed []string
	// Stale lists the temporary files of killed rdbgen runs that were removed from the
	// output's directory before writing.
	Stale []string
	// Commands is the number of RESP commands written, and Streams counts the streams
	// written as RESTORE and what resp.Options.DropLostPending left out (RESP only).
	Commands uint64
	Streams  resp.StreamCounts
	// Duration is the time from the output's creation to the end of its records, the files'
	// sync and placement aside; CountDuration the part of it a split spent counting each
	// shard's keys first (0 when it did not need to).
	Duration, CountDuration time.Duration
}

// A ShardResult is one shard file of a split.
type ShardResult struct {
	Index    int
	Path     string
	Manifest string // empty when none was written
	Stats    encoder.Stats
}

// ErrDone is returned by Commit after Commit or Abort.
var ErrDone = errors.New("output: already committed or aborted")

// A target is what an Output writes: one file, or the files of a split.
type target interface {
	// sink returns the sink of the records.
	sink() record.Sink
	// prepare readies the sink for the records of src: a split counts its shards' keys.
	prepare(ctx context.Context, src record.Source) error
	// commit ends the records and puts the files in place.
	commit(describe func(*manifest.Manifest)) (*Result, error)
	// abort removes what was written.
	abort()
	// written returns the bytes written so far.
	written() int64
}

// An Output is a file, or the shard files of a split, being written. Write the records into
// Sink, then Commit; or call Write. Abort removes what was written; it does nothing after
// Commit, so it can be deferred.
type Output struct {
	t       target
	path    string
	total   *uint64 // Options.Total, as the progress reports read it
	stream  bool
	settled bool
}

// Sink returns the sink the records go into. Pointers given to it are used during the call
// only.
func (o *Output) Sink() record.Sink { return o.t.sink() }

// Stream reports whether the output is written as it goes (standard output, a FIFO, a
// character device) rather than put in place once complete: what it received before an
// error or an interruption stays there, incomplete.
func (o *Output) Stream() bool { return o.stream }

// Written returns the bytes written so far, of all files.
func (o *Output) Written() int64 { return o.t.written() }

// Commit ends the records and puts the output in place: the file and its manifest, or
// every shard file and its manifest together. describe, if not nil, adds to each manifest
// what the records are (Dataset, Spec, Import, Rewrite, Rebase) once the counts are in. On
// an error, nothing new is in place.
func (o *Output) Commit(describe func(*manifest.Manifest)) (*Result, error) {
	if o.settled {
		return nil, ErrDone
	}
	o.settled = true
	res, err := o.t.commit(describe)
	if err != nil {
		o.t.abort()
		return nil, err
	}
	return res, nil
}

// Abort removes what was written: the temporary files, and a shard directory made for the
// run. It does nothing after Commit or Abort.
func (o *Output) Abort() {
	if o.settled {
		return
	}
	o.settled = true
	o.t.abort()
}

// Write writes every record of src into the output and commits it (see Commit), or aborts
// it on an error, ctx's included. A split gives every file the exact RESIZEDB counts of its
// shard when src is a record.KeyLister: filled in last into files, else counted in a first
// pass over the keys. Without describe, a *dataset.Config source is recorded as the
// manifests' Dataset.
func (o *Output) Write(ctx context.Context, src record.Source, describe func(*manifest.Manifest)) (*Result, error) {
	defer o.Abort()
	if s, ok := src.(record.Sizer); ok && *o.total == 0 {
		*o.total = s.Len()
	}
	if err := o.t.prepare(ctx, src); err != nil {
		return nil, err
	}
	if err := src.WriteTo(ctx, o.Sink()); err != nil {
		return nil, err
	}
	if d, ok := src.(*dataset.Config); ok && describe == nil {
		describe = func(m *manifest.Manifest) { m.Dataset = d }
	}
	return o.Commit(describe)
}

// newOutput returns the Output of t at path, its options' Total at total.
func newOutput(t target, path string, total *uint64, stream bool) *Output {
	return &Output{t: t, path: path, total: total, stream: stream}
}

// stamped returns opts with the encoder's creation time set to now when it is zero, so
// that the file and its manifest agree on it.
func stamped(opts Options, now time.Time) Options {
	if opts.Encoder.CreatedAt.IsZero() {
		opts.Encoder.CreatedAt = now
	}
	return opts
}
