package main

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/export"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/bar"
	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write the keys of an RDB file as JSON (the objects of hdt3213's rdb -c json), JSON Lines or CSV",
		UsageText: "rdbgen export dump.rdb [-o out.json|-] [--format json|jsonl|csv] [--match 'user:*'] [--type hash]\n" +
			"rdbgen import out.json -o back.rdb   # reads json and jsonl back, byte for byte",
		Flags: slices.Concat([]cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "output file (gzip-compressed when its name ends in .gz), or - for stdout"},
			&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "overwrite an existing output file"},
			&cli.StringFlag{Name: "format", Usage: "json (one array), jsonl (one object a line) or csv (one row a key, no values); default by the output's extension (.jsonl, .ndjson, .csv), else json"},
			&cli.StringFlag{Name: "target", Value: memory.DefaultTarget, Usage: "the server the memory estimates (size, memory) are for"},
			baseTimeFlag(),
			dropNewerFlag(),
		}, filterFlags(), summaryFlags()),
		Action: exportAction,
	}
}

func exportAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("export takes one input: an RDB file (gzip-compressed or not), or - for stdin")
	}
	if err := refuseLive("export", c.Args().Slice()); err != nil {
		return err
	}
	out := c.String("output")
	format, err := export.FormatFor(c.String("format"), out)
	if err != nil {
		return fmt.Errorf("--format %q (known: json, jsonl, csv)", c.String("format"))
	}
	f, err := filterOptions(c)
	if err != nil {
		return err
	}
	if f.Now, err = baseTime(c, time.Now()); err != nil {
		return err
	}
	est, err := memory.New(memory.Options{Target: c.String("target")})
	if err != nil {
		return err
	}
	dst, err := export.Create(out, c.Bool("force"), c.App.Writer)
	if err != nil {
		return err
	}
	defer dst.Abort()
	in, err := openInput(c, c.Args().First(), input.Options{Format: input.RDB})
	if err != nil {
		return errInterrupted(err)
	}
	defer in.Close()
	start := time.Now()
	dopts := export.DumpOptions{Options: export.Options{Format: format}, Filter: f, Memory: est, Decoder: decoder.Options{MaxHeldBytes: maxHeldBytes, DropNewer: c.Bool("drop-newer")}}
	done := func() {}
	if in.Size > 0 {
		dopts.Decoder.Progress, done = bar.Bytes(c.App.ErrWriter, in.Size, c.Bool("quiet"))
	}
	src, err := in.OpenDump()
	if err != nil {
		return err
	}
	defer src.Close()
	s, err := export.Dump(c.Context, src, in.Name, dst, dopts)
	done()
	if err != nil {
		return cliflags.InterruptedWriting(err, out)
	}
	if err := dst.Commit(); err != nil {
		return err
	}
	s.Seconds = time.Since(start).Seconds()
	s.Output, s.Format = out, string(format)
	w := c.App.Writer
	if out == "-" { // the summary goes to stderr when the export went to stdout
		w = c.App.ErrWriter
	}
	// --quiet wins over --json here.
	return summary.Print(w, s, c.Bool("json") && !c.Bool("quiet"), c.Bool("quiet"), s.WriteText)
}
