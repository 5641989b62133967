package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/bar"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// fileFlags are the flags of every command that writes an RDB file: where it goes, what it
// is written for, and how the run reports.
func fileFlags() []cli.Flag {
	return slices.Concat([]cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "dump.rdb", Usage: "output file, or - for stdout"},
		&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "overwrite an existing output file"},
		&cli.StringFlag{Name: "target", Value: rdb.DefaultTarget, Usage: "server to write for, e.g. redis-7.2, valkey-8.0"},
		&cli.IntFlag{Name: "rdb-version", Usage: "RDB version to write instead of the target's (no newer than the target loads; without --target, the oldest Redis that loads it); 80 with valkey-9.0: Valkey 9's VALKEY080, which holds hashes with field TTLs"},
		&cli.BoolFlag{Name: "no-compress", Usage: "do not LZF-compress long strings"},
		&cli.BoolFlag{Name: "no-checksum", Usage: "write a zero checksum"},
		dropFieldTTLFlag(),
		&cli.StringFlag{Name: "manifest", Usage: "manifest path (default OUTPUT.manifest.json; none with -o -)"},
		baseTimeFlag(),
		&cli.BoolFlag{Name: "dry-run", Usage: "write nothing: print the keys, the file's size and the used_memory the data will take on --target's server"},
		&cli.StringFlag{Name: "format", Value: "rdb", Usage: "rdb: an RDB file; resp: the Redis commands that make the same data, for redis-cli --pipe"},
		dropLostPendingFlag(),
	}, summaryFlags(), encodingFlags())
}

// A fileJob is one run of a command that writes an RDB file, or a directory of shard files.
type fileJob struct {
	now  time.Time
	out  string
	opts output.Options   // with the split's Layout and Shard, and --format resp's RESP
	caps rdb.Capabilities // what the file holds: opts.Encoder checked
}

// newFileJob reads the file and cluster flags and checks them, and the encoder options.
func newFileJob(c *cli.Context) (*fileJob, error) {
	j := &fileJob{out: c.String("output")}
	var err error
	if j.now, err = baseTime(c, time.Now()); err != nil {
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
	j.opts.Stdout = c.App.Writer
	if j.caps, err = j.opts.Encoder.Check(); err != nil {
		return nil, err
	}
	if svc, ok := rdb.LookupService(j.caps.Target.Name); ok && j.out != "-" {
		if err := svc.CheckName(j.out); err != nil { // before anything is read or written
			return nil, err
		}
	}
	if err := j.respFormat(c); err != nil {
		return nil, err
	}
	if isCluster(c) {
		if j.opts.Layout, err = clusterOutput(c); err != nil {
			return nil, err
		}
	}
	if j.opts.Layout == nil && liveClusterSplit(c) {
		return j, nil // the cluster's own layout, asked for once the input is open (liveSplit)
	}
	if j.opts.Shard, err = shardOfSplit(c, j.opts.Layout, false); err != nil || j.opts.Layout != nil {
		return j, err
	}
	// A manifest named by --manifest is written after the file: refuse now what would
	// clobber a file that is not the output's own sidecar.
	j.opts.Manifest = c.String("manifest")
	if err := output.CheckManifest(j.out, j.opts); err != nil {
		return nil, fmt.Errorf("--manifest %w", err)
	}
	return j, nil
}

// write writes the records of src where the flags say (see output.Open): a file put in place
// once complete, with its manifest; stdout; a stream of RESP commands; or a directory of
// shard files. describe adds to each manifest what the records are. It returns the function
// that reports the run, given the counts and notes an import adds.
func (j *fileJob) write(c *cli.Context, src record.Source, describe func(*manifest.Manifest)) (report func(summary.ImportCounts, string) error, err error) {
	opts := j.opts
	var total uint64
	if s, ok := src.(record.Sizer); ok {
		total = s.Len()
	}
	var done func()
	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	opts.Progress, done = bar.Keys(c.App.ErrWriter, int64(total), quiet || asJSON)
	var out *output.Output
	defer func() {
		done()
		err = errInterrupted(output.Interrupted(out, err))
	}()
	if c.Bool("dry-run") {
		return func(summary.ImportCounts, string) error { return nil }, j.dryRun(c, src)
	}
	if out, err = output.Open(j.out, opts); err != nil {
		return nil, err
	}
	res, err := out.Write(c.Context, src, describe)
	if err != nil {
		return nil, err
	}
	for _, line := range summary.Warnings(res) {
		fmt.Fprintln(c.App.ErrWriter, line)
	}
	return func(ic summary.ImportCounts, extra string) error {
		results := c.App.Writer
		if j.out == "-" {
			results = c.App.ErrWriter // stdout holds the file
		}
		sum := summary.FromOutput(res, opts, ic)
		return summary.Print(results, sum, asJSON, quiet, summary.Text(sum.Text(extra)))
	}, nil
}
