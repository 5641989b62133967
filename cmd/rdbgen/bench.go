package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/bar"
	"github.com/rdbgen/rdbgen/internal/bench"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/server"
)

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "time the online loaders against the snapshot file, each on a fresh Redis",
		UsageText: "rdbgen bench --count 1000000 [--type hash] [--report bench-out/] [--backend process|docker] [options]\n" +
			"rdbgen bench --spec examples/sessions.yaml --count-scale 0.1 [options]",
		Flags: slices.Concat(
			builtinDatasetFlags(countUsage+", or --spec", seedUsage),
			specInputFlags(),
			[]cli.Flag{
				&cli.StringFlag{Name: "backend", Value: string(server.BackendAuto), Usage: "how to run each fresh server: auto, process or docker"},
				imageFlag("docker image of the servers"),
				redisServerFlag(),
				&cli.StringSliceFlag{Name: "methods", Usage: "rows to run: " + strings.Join(bench.DefaultMethods, ", "), DefaultText: "all"},
				&cli.IntSliceFlag{Name: "workers", Usage: "worker counts of the parallel rows", DefaultText: strings.Trim(fmt.Sprint(bench.DefaultWorkers), "[]")},
				&cli.IntFlag{Name: "batch", Value: loader.DefaultBatch, Usage: "commands per round trip of the pipeline row"},
				&cli.IntFlag{Name: "repeat", Value: 1, Usage: "runs of each row; the table shows the median"},
				&cli.StringFlag{Name: "report", Usage: "directory to write results.csv, results.json and bench.png into"},
			},
			summaryFlags(),
		),
		Action: benchAction,
	}
}

func benchAction(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	if c.IsSet("spec") && c.IsSet("db") { // load moves a spec's keys; bench does not
		return errors.New("--db does not go with --spec: the spec file describes the keys")
	}
	in, err := inputFromFlags(c, time.Now())
	if err != nil {
		return err
	}
	defer in.Close()
	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	opts := bench.Options{
		Methods: c.StringSlice("methods"),
		Workers: c.IntSlice("workers"),
		Batch:   c.Int("batch"),
		Repeat:  c.Int("repeat"),
		Input:   c.String("spec"),
		Server: server.Options{
			Backend:     server.Backend(c.String("backend")),
			Image:       c.String("image"),
			RedisServer: c.String("redis-server"),
		},
	}
	bars := bar.NewStages(c.App.ErrWriter, quiet || asJSON, bench.Measure)
	bars.Named = true
	opts.Progress = bars.Update
	r, err := bench.Run(c.Context, in.Records, opts)
	bars.Finish()
	if err != nil {
		return errInterrupted(err)
	}
	return bench.Print(c.App.Writer, r, c.String("report"), asJSON, quiet)
}
