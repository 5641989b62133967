package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/record"
)

// dryRun estimates what writing src would make, writes nothing, and reports.
func (j *fileJob) dryRun(c *cli.Context, src record.Source) error {
	if j.opts.RESP != nil || j.opts.Layout != nil {
		return errors.New("--dry-run estimates one RDB file: it does not go with --format resp or a cluster split")
	}
	mopts := memory.Options{Target: j.opts.Encoder.Target, Thresholds: j.opts.Encoder.Thresholds}
	est, err := output.EstimateWrite(c.Context, src, output.Options{Encoder: j.opts.Encoder}, mopts)
	if err != nil {
		return err // worded by write
	}
	sum := summary.DryRunOf(est, j.caps.RDBVersion)
	return summary.Print(c.App.Writer, sum, c.Bool("json"), false, summary.Text(sum.Text()))
}
