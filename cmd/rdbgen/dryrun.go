package main

import (
	"context"
	"errors"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// dryRunFlag is --dry-run: estimate, write nothing.
func dryRunFlag() cli.Flag {
	return &cli.BoolFlag{Name: "dry-run", Usage: "write nothing: print the keys, the file's size and the used_memory the data will take on --target's server"}
}

// dryRun estimates what writing src would make, writes nothing, and reports.
func (j *fileJob) dryRun(c *cli.Context, src record.Source) error {
	if j.resp != nil || j.layout != nil {
		return errors.New("--dry-run estimates one RDB file: it does not go with --format resp or a cluster split")
	}
	var sum summary.DryRun
	mopts := memory.Options{Target: j.opts.Encoder.Target, Thresholds: j.opts.Encoder.Thresholds}
	if s, ok := src.(*spec.Spec); ok {
		est, err := s.Estimate(c.Context, j.opts.Encoder)
		if err != nil {
			return errInterrupted(err)
		}
		sum.Keys, sum.Expires, sum.Bytes = est.Keys, est.Expires, est.Bytes
		sum.BytesExact = true
		for _, f := range est.Families {
			sum.BytesExact = sum.BytesExact && f.Exact
		}
		var r memory.Result
		r, sum.MemoryExact, err = s.EstimateMemory(c.Context, mopts)
		if err != nil {
			return errInterrupted(err)
		}
		sum.Memory = &r
	} else {
		res, r, err := sizeAndMemory(c.Context, src, output.Options{Encoder: j.opts.Encoder}, mopts)
		if err != nil {
			return errInterrupted(err)
		}
		sum.Keys, sum.Expires, sum.Bytes, sum.BytesExact = res.Stats.Keys, res.Stats.Expires, res.Stats.Bytes, true
		sum.Memory, sum.MemoryExact = &r, true
	}
	sum.UsedMemory = sum.Memory.Bytes
	sum.Target = sum.Memory.Target
	sum.RDBVersion = j.caps.RDBVersion
	return summary.Print(c.App.Writer, sum, j.asJSON, false, summary.Text(sum.Text()))
}

// sizeAndMemory reads src once into both the file opts write, to nowhere, for its size, and
// the memory estimate of mopts.
func sizeAndMemory(ctx context.Context, src record.Source, opts output.Options, mopts memory.Options) (*output.Result, memory.Result, error) {
	e, err := memory.New(mopts)
	if err != nil {
		return nil, memory.Result{}, err
	}
	both := record.Through(src, func(file record.Sink) (record.Sink, error) { return record.Tee(file, e), nil })
	res, err := output.Write(ctx, io.Discard, both, opts)
	if err != nil {
		return nil, memory.Result{}, err
	}
	r, err := e.Result()
	return res, r, err
}
