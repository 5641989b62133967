package main

import (
	"errors"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/merge"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join several dumps (a cluster's shard files, dumps of different dbs) into one file",
		UsageText: "rdbgen merge a.rdb b.rdb... -o out.rdb [--on-duplicate error|first|last] [--target T]",
		Flags:     slices.Concat([]cli.Flag{onDuplicateFlag("")}, fileFlags()),
		Action:    mergeAction,
	}
}

func mergeAction(c *cli.Context) error {
	if c.NArg() < 1 {
		return errors.New("merge takes one or more RDB files (rdbgen merge a.rdb b.rdb -o out.rdb)")
	}
	if err := refuseLive("merge", c.Args().Slice()); err != nil {
		return err
	}
	onDup, err := onDuplicate(c)
	if err != nil {
		return err
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	src, err := merge.Files(c.Args().Slice(), decoder.Options{OnDuplicate: onDup, MaxHeldBytes: maxHeldBytes})
	if err != nil {
		return err
	}
	j.opts.Encoder.CountsAreHints = true // a db comes once per input that holds it
	report, err := j.write(c, src, src.Describe)
	if err != nil {
		return err
	}
	return report(summary.ImportCounts{Duplicates: src.Duplicates}, "")
}
