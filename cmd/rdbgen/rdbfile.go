package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/manifest"
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
		&cli.BoolFlag{Name: "drop-field-ttl", Usage: "below RDB 12, write hashes whose fields expire without the field TTLs (default: an error)"},
		&cli.StringFlag{Name: "manifest", Usage: "manifest path (default OUTPUT.manifest.json; none with -o -)"},
	}, summaryFlags(), encodingFlags())
}

// A fileJob is one run of a command that writes an RDB file.
type fileJob struct {
	now          time.Time
	out          string
	manifestPath string
	force        bool
	quiet        bool
	asJSON       bool
	results      io.Writer // stdout, or stderr when the file goes to stdout
	opts         encoder.Options
}

// newFileJob reads the file flags and checks the encoder options.
func newFileJob(c *cli.Context) (*fileJob, error) {
	j := &fileJob{
		now:          time.Now(),
		out:          c.String("output"),
		manifestPath: c.String("manifest"),
		force:        c.Bool("force"),
		quiet:        c.Bool("quiet"),
		asJSON:       c.Bool("json"),
		results:      c.App.Writer,
	}
	j.opts = encoder.Options{
		Target:             targetFrom(c),
		RDBVersion:         c.Int("rdb-version"),
		DisableCompression: c.Bool("no-compress"),
		DisableChecksum:    c.Bool("no-checksum"),
		DropFieldTTL:       c.Bool("drop-field-ttl"),
		CreatedAt:          j.now,
		Thresholds:         thresholdsFrom(c),
	}
	if _, err := encoder.NewWriter(io.Discard, j.opts); err != nil {
		return nil, err
	}
	if j.manifestPath == "" && j.out != "-" {
		j.manifestPath = manifest.PathFor(j.out)
	} else if j.manifestPath != "" && !isCluster(c) {
		// A manifest named by --manifest is written after the file: refuse now what would
		// clobber a file that is not the output's own sidecar.
		if filepath.Clean(j.manifestPath) == filepath.Clean(j.out) {
			return nil, fmt.Errorf("--manifest %s is the output file", j.manifestPath)
		}
		if err := atomicfile.Check(j.manifestPath, j.force); err != nil {
			return nil, fmt.Errorf("--manifest %w", err)
		}
	}
	if j.out == "-" {
		j.results = c.App.ErrWriter
	}
	return j, nil
}

// write runs write into a temporary file that replaces the output only once it is complete
// (or into stdout), with a progress bar of total keys when stderr is a terminal.
func (j *fileJob) write(c *cli.Context, total uint64, write func(dst io.Writer, progress func(rdbgen.Progress)) (rdbgen.Result, error)) (rdbgen.Result, error) {
	var dst io.Writer = c.App.Writer
	var file *atomicfile.File
	if j.out != "-" {
		f, err := atomicfile.Create(j.out, j.force)
		if err != nil {
			return rdbgen.Result{}, err
		}
		defer f.Abort()
		file, dst = f, f
	}
	progress, done := j.progress(c, total)
	res, err := write(dst, progress)
	done()
	if err != nil {
		return res, errInterrupted(err)
	}
	if file != nil {
		if err := file.Commit(); err != nil {
			return res, err
		}
	}
	return res, nil
}

// progress returns a progress callback that draws a bar of total keys (0: unknown) when
// stderr is a terminal, and the function that ends the bar; progress is nil without a bar.
func (j *fileJob) progress(c *cli.Context, total uint64) (progress func(rdbgen.Progress), done func()) {
	bar := newBar(c.App.ErrWriter, int64(total), "keys", j.quiet || j.asJSON)
	if bar == nil {
		return nil, func() {}
	}
	return func(p rdbgen.Progress) { bar.Set64(int64(p.Keys)) }, func() { bar.Finish() }
}

// manifest returns the manifest of res, without its dataset.
func (j *fileJob) manifest(res rdbgen.Result) *manifest.Manifest {
	return &manifest.Manifest{
		Format:     manifest.FormatVersion,
		Generator:  "rdbgen " + encoder.Version,
		CreatedAt:  j.now.UTC(),
		Target:     res.Target,
		RDBVersion: res.RDBVersion,
		Compressed: !j.opts.DisableCompression,
		Checksum:   manifest.FormatChecksum(res.Stats.Checksum),
		Bytes:      res.Stats.Bytes,
		Keys:       res.Stats.Keys,
		Expires:    res.Stats.Expires,
		DBs:        map[int]manifest.Counts{},
		Thresholds: j.opts.Thresholds,
	}
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

// finish writes the manifest m (when there is a manifest path) and reports the run; extra,
// if not empty, is added to the one-line summary.
func (j *fileJob) finish(res rdbgen.Result, m *manifest.Manifest, sum generateSummary, extra string) error {
	if j.manifestPath != "" && m != nil {
		if err := manifest.Write(j.manifestPath, m); err != nil {
			return fmt.Errorf("wrote %s but not its manifest: %w", j.out, err)
		}
	}
	sum.Output, sum.Manifest = j.out, j.manifestPath
	sum.Keys, sum.Expires, sum.Members = res.Stats.Keys, res.Stats.Expires, res.Stats.Members
	sum.Bytes, sum.Seconds = res.Stats.Bytes, res.Duration.Seconds()
	sum.KeysPerSecond = perSecond(res.Stats.Keys, res.Duration)
	sum.Target, sum.RDBVersion = res.Target, res.RDBVersion
	sum.Checksum = manifest.FormatChecksum(res.Stats.Checksum)
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
		sum.Keys, sum.Expires, members, j.out, humanBytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.RDBVersion, sum.Target, extra)
	return err
}
