package main

import (
	"errors"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/merge"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join several dumps (a cluster's shard files, dumps of different dbs) into one file",
		UsageText: "rdbgen merge a.rdb b.rdb.gz... -o out.rdb [--on-duplicate error|first|last] [--target T]",
		Description: "Memory stays bounded whatever the inputs hold: keys that come in two inputs are found\n" +
			"as the reader finds repeated keys, by 64-bit hashes in 5.5 MiB, spilled past about half a\n" +
			"million keys to a temporary file in $TMPDIR (8 bytes a key, removed when merge ends, on\n" +
			"error and Ctrl-C too); only keys whose hash repeats are held, 32 to 64 bytes each (all\n" +
			"the keys two inputs share, under --on-duplicate first or last).",
		Flags:  slices.Concat([]cli.Flag{onDuplicateFlag(""), skipUnsupportedFlag()}, fileFlags(), functionFlags()),
		Action: mergeAction,
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
	if err := checkFunctionFlags(c, true, j.opts.RESP != nil); err != nil {
		return err
	}
	src := &merge.Source{OnDuplicate: onDup}
	var ins []*input.Input
	defer func() {
		for _, in := range ins {
			in.Close()
		}
	}()
	for _, arg := range c.Args().Slice() {
		switch {
		case arg == "":
			return errors.New("merge: an input is an empty file name: name each dump")
		case arg == "-":
			return errors.New("merge reads files, not stdin: an input may be read twice")
		}
		// A dump as convert reads it: gzip too.
		in, err := openInput(c, arg, input.Options{Format: input.RDB, OnDuplicate: onDup})
		if err != nil {
			return errInterrupted(err)
		}
		ins = append(ins, in)
		src.Inputs = append(src.Inputs, merge.Input{Name: in.Name, Source: in.Source})
	}
	j.opts.Encoder.CountsAreHints = true // a db comes once per input that holds it
	f := filter.Options{Now: j.now, DropExpired: j.opts.RESP != nil}
	conv, stats, err := convert.Through(src, j.opts.Encoder, convert.Options{Filter: f, SkipUnsupported: c.Bool("skip-unsupported"), DropFunctions: c.Bool("drop-functions")})
	if err != nil {
		return err
	}
	report, err := j.write(c, conv, src.Describe)
	if err != nil {
		return err
	}
	read := decoder.Stats{Duplicates: src.Duplicates}
	for _, in := range ins {
		read.Duplicates += in.Read.Duplicates
		for what, n := range in.Read.NewerDropped {
			if read.NewerDropped == nil {
				read.NewerDropped = map[string]uint64{}
			}
			read.NewerDropped[what] += n
		}
	}
	counts := summary.ConvertCounts(*stats, read, src.LibrariesDropped)
	counts.ModuleAuxDuplicate = src.ModuleAuxDropped
	return report(counts, summary.ConvertNotes(*stats, read, src.LibrariesDropped)+summary.FunctionCounts{ModuleAuxDuplicate: src.ModuleAuxDropped}.Suffix(""))
}
