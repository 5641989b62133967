package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// fileFlags are the flags of every command that writes an RDB file: where it goes, what it
// is written for, and how the run reports.
func fileFlags() []cli.Flag {
	return slices.Concat([]cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "dump.rdb", Usage: "output file, or - for stdout"},
		&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "overwrite an existing output file"},
		&cli.StringFlag{Name: "target", Value: encoder.DefaultTarget, Usage: "server to write for, e.g. redis-7.2, valkey-8.0"},
		&cli.IntFlag{Name: "rdb-version", Usage: "RDB version to write instead of the target's (no newer than the target loads; without --target, the oldest Redis that loads it)"},
		&cli.BoolFlag{Name: "no-compress", Usage: "do not LZF-compress long strings"},
		&cli.BoolFlag{Name: "no-checksum", Usage: "write a zero checksum"},
		&cli.BoolFlag{Name: "drop-field-ttl", Usage: fmt.Sprintf("below RDB %d, write hashes whose fields expire without the field TTLs, dropping the fields already expired (default: an error)", encoder.HashFieldTTL.Since())},
		&cli.StringFlag{Name: "manifest", Usage: "manifest path (default OUTPUT.manifest.json; none with -o -)"},
		baseTimeFlag(),
		dryRunFlag(),
		&cli.StringFlag{Name: "format", Value: "rdb", Usage: "rdb: an RDB file; resp: the Redis commands that make the same data, for redis-cli --pipe"},
		dropLostPendingFlag(),
	}, summaryFlags(), encodingFlags())
}

// A fileJob is one run of a command that writes an RDB file, or a directory of shard files.
type fileJob struct {
	now      time.Time
	out      string
	quiet    bool
	asJSON   bool
	results  io.Writer // stdout, or stderr when the file goes to stdout
	warnings io.Writer // stderr
	opts     rdbgen.FileOptions
	caps     encoder.Capabilities // what the file holds: opts.Encoder checked
	layout   *cluster.Layout      // the split's, or nil for one file
	shard    int                  // the one shard of the split written (--shard-index), or -1 for all
	resp     *rdbgen.RESPOptions  // with --format resp: the commands' options; nil for an RDB file
	stdout   *countingWriter      // stdout, counting what -o - wrote
}

// newFileJob reads the file and cluster flags and checks them, and the encoder options.
func newFileJob(c *cli.Context) (*fileJob, error) {
	j := &fileJob{
		now:      time.Now(),
		out:      c.String("output"),
		quiet:    c.Bool("quiet"),
		asJSON:   c.Bool("json"),
		results:  c.App.Writer,
		warnings: c.App.ErrWriter,
		stdout:   &countingWriter{w: c.App.Writer},
	}
	var err error
	if j.now, err = baseTime(c, j.now); err != nil {
		return nil, err
	}
	j.opts.Encoder = encoder.Options{
		Target:             targetFrom(c),
		RDBVersion:         c.Int("rdb-version"),
		DisableCompression: c.Bool("no-compress"),
		DisableChecksum:    c.Bool("no-checksum"),
		DropFieldTTL:       c.Bool("drop-field-ttl"),
		CreatedAt:          j.now,
		Thresholds:         thresholdsFrom(c),
	}
	j.opts.Force = c.Bool("force")
	if j.caps, err = j.opts.Encoder.Check(); err != nil {
		return nil, err
	}
	if c.String("format") != "rdb" {
		if err := j.respFormat(c); err != nil {
			return nil, err
		}
	} else if c.Bool("drop-lost-pending") {
		return nil, errors.New("--drop-lost-pending goes with --format resp: an RDB file carries every pending entry")
	}
	if isCluster(c) {
		if j.layout, err = clusterOutput(c); err != nil {
			return nil, err
		}
	}
	if j.shard, err = shardOfSplit(c, j.layout); err != nil || j.layout != nil {
		return j, err
	}
	j.opts.Manifest = c.String("manifest")
	switch {
	case j.opts.Manifest == "" && j.out == "-":
		j.opts.NoManifest = true
	case j.opts.Manifest != "":
		// A manifest named by --manifest is written after the file: refuse now what would
		// clobber a file that is not the output's own sidecar.
		if filepath.Clean(j.opts.Manifest) == filepath.Clean(j.out) {
			return nil, fmt.Errorf("--manifest %s is the output file", j.opts.Manifest)
		}
		if err := atomicfile.Check(j.opts.Manifest, j.opts.Force); err != nil {
			return nil, fmt.Errorf("--manifest %w", err)
		}
	}
	if j.out == "-" {
		j.results = c.App.ErrWriter
	}
	return j, nil
}

// write writes the records of src where the flags say: a file put in place once complete,
// with its manifest; stdout; or a directory of shard files. describe adds to each manifest
// what the records are. It returns the function that reports the run, given the counts and
// notes an import adds.
func (j *fileJob) write(c *cli.Context, src record.Source, describe func(*manifest.Manifest)) (report func(importCounts, string) error, err error) {
	opts := j.opts
	opts.Describe = describe
	var total uint64
	if s, ok := src.(record.Sizer); ok {
		total = s.Len()
	}
	var done func()
	opts.Progress, done = j.progress(c, total)
	defer func() {
		done()
		err = j.interrupted(err)
	}()
	switch {
	case c.Bool("dry-run"):
		return func(importCounts, string) error { return nil }, j.dryRun(c, src)
	case j.resp != nil:
		return j.writeRESP(c, src, opts.Progress)
	case j.layout != nil:
		res, err := j.writeShards(c, src, opts)
		if err != nil {
			return nil, err
		}
		j.warnStale(res.Stale)
		return func(ic importCounts, extra string) error { return j.reportShards(res, ic, extra) }, nil
	case j.out == "-":
		res, err := rdbgen.Write(c.Context, j.stdout, src, opts.Options)
		if err != nil {
			return nil, err
		}
		if !opts.NoManifest {
			m := manifest.New(opts.Encoder, res.Target, res.RDBVersion, res.Stats, res.DBs)
			describe(m)
			if err := manifest.Write(opts.Manifest, m); err != nil {
				return nil, fmt.Errorf("wrote %s but not its manifest: %w", j.out, err)
			}
		}
		warnDatabases(j.warnings, j.out, res.DBs)
		fr := rdbgen.FileResult{Result: res, Path: j.out}
		if !opts.NoManifest {
			fr.Manifest = opts.Manifest
		}
		return func(ic importCounts, extra string) error { return j.report(fr, ic, extra) }, nil
	}
	res, err := rdbgen.WriteFile(c.Context, j.out, src, opts)
	if err != nil {
		return nil, err
	}
	j.warnStale(res.Stale)
	warnDatabases(j.warnings, j.out, res.DBs)
	return func(ic importCounts, extra string) error { return j.report(res, ic, extra) }, nil
}

// interrupted replaces a context error with words that say what was written: nothing, as a
// file is put in place only once complete; but what went to stdout, a FIFO or a device
// before the interruption stays there, incomplete.
func (j *fileJob) interrupted(err error) error {
	if !errors.Is(err, context.Canceled) {
		return err
	}
	switch {
	case j.out == "-" && j.stdout.n > 0:
		return fmt.Errorf("interrupted after %s went to stdout: that output is incomplete, discard it", humanBytes(j.stdout.n))
	case j.out != "-" && j.layout == nil && atomicfile.IsStream(j.out):
		return fmt.Errorf("interrupted: what %s received is incomplete, discard it", j.out)
	}
	return errInterrupted(err)
}

// A countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// progress returns a progress callback that draws a bar of total keys (0: unknown) when
// stderr is a terminal, and the function that ends the bar; progress is nil without a bar.
func (j *fileJob) progress(c *cli.Context, total uint64) (progress func(record.Progress), done func()) {
	bar := newBar(c.App.ErrWriter, int64(total), "keys", j.quiet || j.asJSON)
	if bar == nil {
		return nil, func() {}
	}
	return func(p record.Progress) { bar.Set64(int64(p.Keys)) }, func() { bar.Finish() }
}

// generateSummary is what the commands that write a file report when they are done.
type generateSummary struct {
	Output        string  `json:"output"`
	Manifest      string  `json:"manifest,omitempty"`
	Keys          uint64  `json:"keys"`
	Expires       uint64  `json:"expires"`
	Members       uint64  `json:"members,omitempty"`
	Bytes         int64   `json:"bytes"`
	Seconds       float64 `json:"seconds"`
	KeysPerSecond float64 `json:"keys_per_second"`
	Target        string  `json:"target"`
	RDBVersion    int     `json:"rdb_version"`
	Checksum      string  `json:"checksum"`
	importCounts          // imports only
}

// report reports the run that wrote res; extra, if not empty, is added to the one-line
// summary.
func (j *fileJob) report(res rdbgen.FileResult, ic importCounts, extra string) error {
	st := res.Stats
	sum := generateSummary{
		Output: res.Path, Manifest: res.Manifest,
		Keys: st.Keys, Expires: st.Expires, Members: st.Members, Bytes: st.Bytes,
		Seconds: res.Duration.Seconds(), KeysPerSecond: perSecond(st.Keys, res.Duration),
		Target: res.Target, RDBVersion: res.RDBVersion, Checksum: manifest.FormatChecksum(st.Checksum),
		importCounts: ic,
	}
	switch {
	case j.asJSON:
		return printJSON(j.results, sum)
	case j.quiet:
		return nil
	}
	members := ""
	if sum.Members > 0 {
		members = fmt.Sprintf(", %d members at %.0f/s", sum.Members, perSecond(sum.Members, res.Duration))
	}
	_, err := fmt.Fprintf(j.results, "wrote %d keys (%d with TTL%s) to %s: %s in %.2fs, %.0f keys/s (RDB %d, %s)%s\n",
		sum.Keys, sum.Expires, members, sum.Output, humanBytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.RDBVersion, sum.Target, extra)
	return err
}

// warnStale says which temporary files of killed runs were removed before writing.
func (j *fileJob) warnStale(paths []string) {
	for _, path := range paths {
		fmt.Fprintf(j.warnings, "removed %s, the temporary file of an rdbgen run that was killed\n", path)
	}
}

// warnDatabases warns when a file holds a db that a server with the default databases
// setting lacks, and so refuses at start-up.
func warnDatabases(w io.Writer, out string, dbs map[int]record.Counts) {
	maxDB := -1
	for db, n := range dbs {
		if n.Keys > 0 {
			maxDB = max(maxDB, db)
		}
	}
	if maxDB >= server.DefaultDatabases {
		fmt.Fprintf(w, "warning: %s holds db %d: a server loads it only when configured with databases %d or more (the default is %d)\n",
			out, maxDB, server.DatabasesFor(maxDB), server.DefaultDatabases)
	}
}
