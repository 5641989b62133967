package main

import (
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/spec"
)

func specCommand() *cli.Command {
	return &cli.Command{
		Name:  "spec",
		Usage: "work with dataset spec files",
		Subcommands: []*cli.Command{{
			Name:      "check",
			Usage:     "validate a spec file and estimate its file, writing nothing",
			UsageText: "rdbgen spec check dataset.yaml [options]",
			Flags: append([]cli.Flag{
				&cli.Uint64Flag{Name: "seed", Usage: "seed of the generators (default: the spec's)"},
				&cli.Float64Flag{Name: "count-scale", Usage: "multiply every family's count by this"},
				&cli.StringFlag{Name: "target", Value: encoder.DefaultTarget, Usage: "server to estimate the file for"},
				&cli.IntFlag{Name: "rdb-version", Usage: "RDB version instead of the target's"},
				&cli.BoolFlag{Name: "no-compress", Usage: "estimate without LZF compression"},
				&cli.BoolFlag{Name: "drop-field-ttl", Usage: fmt.Sprintf("below RDB %d, estimate hashes whose fields expire without the field TTLs", encoder.HashFieldTTL.Since())},
				&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			}, encodingFlags()...),
			Action: specCheckAction,
		}},
	}
}

// specCheckResult is what spec check reports.
type specCheckResult struct {
	File       string `json:"file"`
	Target     string `json:"target"`
	RDBVersion int    `json:"rdb_version"`
	spec.Estimate
	// UsedMemory is the used_memory the records take on the target once loaded (above an
	// empty server's); exact false when estimated from the spec scaled down.
	UsedMemory      int64          `json:"used_memory"`
	UsedMemoryExact bool           `json:"used_memory_exact"`
	Memory          *memory.Result `json:"memory"`
}

func specCheckAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("spec check takes one spec file")
	}
	s, err := loadSpec(c, time.Now())
	if err != nil {
		return err
	}
	opts := encoder.Options{
		Target:             targetFrom(c),
		RDBVersion:         c.Int("rdb-version"),
		DisableCompression: c.Bool("no-compress"),
		DropFieldTTL:       c.Bool("drop-field-ttl"),
		Thresholds:         thresholdsFrom(c),
	}
	caps, err := opts.Check()
	if err != nil {
		return err
	}
	est, err := s.Estimate(c.Context, opts)
	if err != nil {
		return errInterrupted(err)
	}
	mem, exact, err := s.EstimateMemory(c.Context, memory.Options{Target: caps.Target.Name, Thresholds: opts.Thresholds})
	if err != nil {
		return errInterrupted(err)
	}
	res := specCheckResult{File: s.File, Target: caps.Target.Name, RDBVersion: caps.RDBVersion, Estimate: est,
		UsedMemory: mem.Bytes, UsedMemoryExact: exact, Memory: &mem}
	if c.Bool("json") {
		return printJSON(c.App.Writer, res)
	}
	out := c.App.Writer
	fmt.Fprintf(out, "%s: ok\n", s.File)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  family\tkey\ttype\tdb\tkeys\tttl\test. size")
	for _, fe := range est.Families {
		f := s.Family(fe.Name)
		ttl := "-"
		if f.TTL > 0 {
			ttl = f.TTL.String()
			if f.TTLJitter > 0 {
				ttl += "±" + f.TTLJitter.String()
			}
		}
		size := human.Bytes(fe.Bytes)
		if !fe.Exact {
			size = "~" + size
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%d\t%s\t%s\n", fe.Name, fe.Key, fe.Type, fe.DB, fe.Keys, ttl, size)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	approx := "~"
	if exact {
		approx = ""
	}
	_, err = fmt.Fprintf(out, "%d keys (%d with TTL) in %d families; estimated file size %s (%d bytes; RDB %d, %s); used_memory %s%s once loaded\n",
		est.Keys, est.Expires, len(est.Families), human.Bytes(est.Bytes), est.Bytes, res.RDBVersion, res.Target, approx, human.Bytes(mem.Bytes))
	return err
}
