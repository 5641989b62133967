package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/summary"
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "write an RDB file (the default command)",
		UsageText: "rdbgen [generate] --count N -o dump.rdb [options]\nrdbgen [generate] --spec dataset.yaml -o dump.rdb [options]",
		Flags: slices.Concat(
			builtinDatasetFlags("number of keys to write (required without --spec)",
				"seed for random values and TTL jitter (default with --spec: the spec's seed)"),
			[]cli.Flag{
				&cli.StringFlag{Name: "spec", Usage: "write the key families of a spec file (YAML) instead of --count keys"},
				&cli.Float64Flag{Name: "count-scale", Usage: "with --spec: multiply every family's count by this, e.g. 0.01 to try a spec small"},
			},
			fileFlags(),
			clusterFlags(),
		),
		Action: generateAction,
	}
}

func generateAction(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	if c.IsSet("spec") {
		return generateSpecAction(c)
	}
	if c.IsSet("count-scale") {
		return errors.New("--count-scale goes with --spec")
	}
	if !c.IsSet("count") {
		return errors.New("--count is required (the number of keys to write), or --spec FILE")
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	d, err := datasetFromFlags(c, j.now)
	if err != nil {
		return err
	}
	if j.opts.Layout != nil && d.DB != 0 {
		return fmt.Errorf("--db %d: %w (a cluster node refuses other dbs)", d.DB, cluster.ErrDB)
	}
	report, err := j.write(c, d, nil) // output.Write describes a dataset
	if err != nil {
		return err
	}
	return report(summary.ImportCounts{}, "")
}
