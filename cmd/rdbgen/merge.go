package main

import (
	"errors"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/input"
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
	onDup, err := onDuplicate(c)
	if err != nil {
		return err
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	var ins []*input.Input
	defer func() {
		for _, in := range ins {
			in.Close()
		}
	}()
	for _, arg := range c.Args().Slice() {
		if arg == "-" {
			return errors.New("merge reads files, not stdin: an input may be read twice")
		}
		in, err := openInput(c, arg, input.Options{Format: input.RDB})
		if err != nil {
			return errInterrupted(err)
		}
		ins = append(ins, in)
	}
	src := merge.Inputs(ins, decoder.Options{OnDuplicate: onDup, MaxHeldBytes: maxHeldBytes})
	j.opts.Encoder.CountsAreHints = true // a db comes once per input that holds it
	report, err := j.write(c, src, src.Describe)
	if err != nil {
		return err
	}
	return report(summary.ImportCounts{Duplicates: src.Duplicates}, "")
}
