package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/manifest"
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "write an RDB file (the default command)",
		UsageText: "rdbgen [generate] --count N -o dump.rdb [options]",
		Flags: slices.Concat(
			datasetFlags(),
			[]cli.Flag{
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "dump.rdb", Usage: "output file, or - for stdout"},
				&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "overwrite an existing output file"},
				&cli.StringFlag{Name: "target", Value: encoder.DefaultTarget, Usage: "server to write for, e.g. redis-7.2, valkey-8.0"},
				&cli.IntFlag{Name: "rdb-version", Usage: "RDB version to write instead of the target's"},
				&cli.BoolFlag{Name: "no-compress", Usage: "do not LZF-compress long strings"},
				&cli.BoolFlag{Name: "no-checksum", Usage: "write a zero checksum"},
				&cli.StringFlag{Name: "manifest", Usage: "manifest path (default OUTPUT.manifest.json; none with -o -)"},
			},
			summaryFlags(),
			encodingFlags(),
		),
		Action: generateAction,
	}
}

// generateSummary is what generate reports when it is done.
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
}

func generateAction(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	now := time.Now()
	d, err := datasetFromFlags(c, now)
	if err != nil {
		return err
	}
	opts := encoder.Options{
		Target:             c.String("target"),
		RDBVersion:         c.Int("rdb-version"),
		DisableCompression: c.Bool("no-compress"),
		DisableChecksum:    c.Bool("no-checksum"),
		CreatedAt:          now,
		Thresholds:         thresholdsFrom(c),
	}
	if _, err := encoder.NewWriter(io.Discard, opts); err != nil {
		return err
	}

	out := c.String("output")
	manifestPath := c.String("manifest")
	if manifestPath == "" && out != "-" {
		manifestPath = manifest.PathFor(out)
	}
	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	results := c.App.Writer
	if out == "-" {
		results = c.App.ErrWriter
	}

	// The dump goes to a temporary file that replaces the output only once it is complete.
	var dst io.Writer = c.App.Writer
	var file *atomicfile.File
	if out != "-" {
		f, err := atomicfile.Create(out, c.Bool("force"))
		if err != nil {
			return err
		}
		defer f.Abort()
		file, dst = f, f
	}

	bar := newBar(c.App.ErrWriter, int64(d.Count), "keys", quiet || asJSON)
	var progress func(rdbgen.Progress)
	if bar != nil {
		progress = func(p rdbgen.Progress) { bar.Set64(int64(p.Keys)) }
	}
	res, err := rdbgen.Generate(c.Context, dst, d, opts, progress)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return errInterrupted(err)
	}

	sum := generateSummary{
		Output:        out,
		Manifest:      manifestPath,
		Keys:          res.Stats.Keys,
		Expires:       res.Stats.Expires,
		Members:       res.Stats.Members,
		Bytes:         res.Stats.Bytes,
		Seconds:       res.Duration.Seconds(),
		KeysPerSecond: perSecond(res.Stats.Keys, res.Duration),
		Target:        res.Target,
		RDBVersion:    res.RDBVersion,
		Checksum:      manifest.FormatChecksum(res.Stats.Checksum),
	}
	if file != nil {
		if err := file.Commit(); err != nil {
			return err
		}
	}
	if manifestPath != "" {
		m := &manifest.Manifest{
			Format:     manifest.FormatVersion,
			Generator:  "rdbgen " + encoder.Version,
			CreatedAt:  now.UTC(),
			Target:     res.Target,
			RDBVersion: res.RDBVersion,
			Compressed: !opts.DisableCompression,
			Checksum:   sum.Checksum,
			Bytes:      res.Stats.Bytes,
			Keys:       res.Stats.Keys,
			Expires:    res.Stats.Expires,
			DBs:        map[int]manifest.Counts{},
			Dataset:    d,
			Thresholds: opts.Thresholds,
		}
		if d.Count > 0 {
			m.DBs[d.DB] = manifest.Counts{Keys: res.Stats.Keys, Expires: res.Stats.Expires}
		}
		if err := manifest.Write(manifestPath, m); err != nil {
			return fmt.Errorf("wrote %s but not its manifest: %w", out, err)
		}
	}

	switch {
	case asJSON:
		return printJSON(results, sum)
	case quiet:
		return nil
	}
	members := ""
	if sum.Members > 0 {
		members = fmt.Sprintf(", %d members at %.0f/s", sum.Members, perSecond(sum.Members, res.Duration))
	}
	_, err = fmt.Fprintf(results, "wrote %d keys (%d with TTL%s) to %s: %s in %.2fs, %.0f keys/s (RDB %d, %s)\n",
		sum.Keys, sum.Expires, members, out, humanBytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.RDBVersion, sum.Target)
	return err
}
