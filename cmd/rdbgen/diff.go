package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/diff"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two dumps logically (any versions, encodings, key orders); exit 0 same, 1 different, 2 trouble",
		UsageText: "rdbgen diff a.rdb b.rdb [--json|--quiet] [--keys-only] [--ignore-ttl] [--limit N]",
		Description: "Memory stays bounded whatever the dumps hold: the first reading keeps 64 KiB of sums a\n" +
			"dump; when they differ, the fingerprints of the keys to compare go to a temporary file\n" +
			"in $TMPDIR (37 bytes a key a dump, removed when diff ends, on error and Ctrl-C too) past\n" +
			"2.8 MiB a dump, and up to 2 MiB of names a dump are kept (past them, a third reading\n" +
			"finds the names shown).",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing: only the exit status (and the error of trouble)"},
			&cli.BoolFlag{Name: "keys-only", Usage: "compare which keys (and types) each side holds, not values or expiries"},
			&cli.BoolFlag{Name: "ignore-ttl", Usage: "leave key and hash-field expiries out"},
			&cli.IntFlag{Name: "limit", Value: diff.DefaultLimit, Usage: "differing keys named (0: none); the counts take them all"},
			dropNewerFlag(),
		},
		Action:       cliflags.Verdict(diffAction, diff.ErrDifferent), // exit 0 same, 1 different, 2 trouble
		OnUsageError: cliflags.UsageExit(2),                           // a bad flag is trouble, not "different"
	}
}

func diffAction(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) != 2 {
		return fmt.Errorf("diff takes two files, got %d (rdbgen diff a.rdb b.rdb)", len(args))
	}
	if args[0] == "-" && args[1] == "-" {
		return errors.New("diff: both inputs cannot be stdin: give at least one as a file (rdbgen diff a.rdb - < b.rdb)")
	}
	if err := refuseLive("diff", args); err != nil {
		return err
	}
	limit, err := cliflags.Limit(c, "limit")
	if err != nil {
		return err
	}
	var files [2]*newerCounted
	for i, p := range args {
		in, err := openInput(c, p, input.Options{Format: input.RDB})
		if err != nil {
			return err
		}
		defer in.Close()
		files[i] = &newerCounted{File: in.DumpFile(decoder.Options{MaxHeldBytes: maxHeldBytes, DropNewer: c.Bool("drop-newer")})}
	}
	res, err := diff.Compare(c.Context, files[0], files[1], diff.Options{KeysOnly: c.Bool("keys-only"), IgnoreTTL: c.Bool("ignore-ttl"), Limit: limit})
	if err != nil {
		return cliflags.Interrupted(err)
	}
	for _, f := range files {
		if len(f.dropped) > 0 && !c.Bool("quiet") {
			fmt.Fprintf(c.App.ErrWriter, "rdbgen: %s compared without %s (--drop-newer)\n", f.Name, summary.NewerList(f.dropped))
		}
	}
	if err := summary.Print(c.App.Writer, res.JSON(), c.Bool("json"), c.Bool("quiet"), res.WriteText); err != nil {
		return err
	}
	return res.Verdict()
}
