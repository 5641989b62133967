package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "write an RDB file from JSON (rdb -c json, as an array or JSON Lines), CSV or another RDB file",
		UsageText: "rdbgen import data.jsonl -o dump.rdb [options]\nrdbgen import - -o dump.rdb < data.json.gz\nrdbgen import redis://user:password@host:6379 -o dump.rdb [--via scan]",
		Flags: slices.Concat(inputFileFlags("", ""),
			[]cli.Flag{&cli.IntFlag{Name: "db", Usage: "CSV: the database of every key", Category: "CSV"}},
			fileFlags(), clusterFlags(), rewriteFlags(), functionFlags(), liveFlags()),
		Action: importAction,
	}
}

func importAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("import takes one input: a file, - for stdin, or a live server (redis://…)")
	}
	arg := c.Args().First()
	onDup, err := onDuplicate(c)
	if err != nil {
		return err
	}
	format, err := inputFormat(c)
	if err != nil {
		return err
	}
	csvOpts, err := csvOptions(c, arg)
	if err != nil {
		return err
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	in, err := openInput(c, arg, input.Options{Format: format, OnDuplicate: onDup, SkipInvalid: c.Bool("skip-invalid"), CSV: csvOpts, BaseTime: j.now})
	if err != nil {
		return errInterrupted(err)
	}
	defer in.Close()
	if err := checkInputFlags(c, in); err != nil {
		return err
	}
	if in.IsDump() {
		if err := checkFunctionFlags(c, true, j.opts.RESP != nil); err != nil {
			return err
		}
		return convertRDB(c, j, in, convert.Options{Filter: filter.Options{Now: j.now}, DropFunctions: c.Bool("drop-functions")}, onDup)
	}
	if err := checkFunctionFlags(c, false, false); err != nil {
		return err
	}
	rewritten, rules, err := rewriteSource(c, in.Source)
	if err != nil {
		return err
	}
	report, err := j.write(c, rewritten, func(m *manifest.Manifest) {
		m.Import = in.ImportManifest(onDup)
		if rules != nil {
			m.Rewrite = rules
		}
	})
	if err != nil {
		return in.Err(err)
	}
	return report(summary.ImportStats(in.Import.Stats), summary.ImportNotes(in))
}

// inputFormat reads --input-format.
func inputFormat(c *cli.Context) (input.Kind, error) {
	format := input.Kind(c.String("input-format"))
	if !input.ValidFormat(format) {
		return "", fmt.Errorf("--input-format %q (known: auto, json, csv, rdb)", format)
	}
	return format, nil
}

// openInput opens the input arg names ("-": the app's stdin) as opts say.
func openInput(c *cli.Context, arg string, opts input.Options) (*input.Input, error) {
	lo, err := liveOptions(c, arg)
	if err != nil {
		return nil, err
	}
	opts.Live = lo
	if opts.Cluster, err = liveCluster(c, arg); err != nil {
		return nil, err
	}
	opts.Stdin = c.App.Reader
	opts.Decoder.MaxHeldBytes = maxHeldBytes
	opts.Decoder.DropNewer = c.Bool("drop-newer") // false where the command has no such flag
	return input.Open(c.Context, arg, opts)
}

// checkInputFlags refuses the flags that do not apply to what the input turned out to be:
// the CSV flags to JSON and dumps, --skip-invalid to dumps.
func checkInputFlags(c *cli.Context, in *input.Input) error {
	what := "JSON, whose records give their own db and type"
	switch {
	case in.Kind == input.CSV:
		return nil
	case in.IsDump() && c.IsSet("skip-invalid"):
		return fmt.Errorf("--skip-invalid applies to JSON and CSV input only, and %s is a dump", in.Name)
	case in.IsDump():
		what = "a dump"
	}
	if flag := csvFlagSet(c); flag != "" {
		return fmt.Errorf("--%s applies to CSV input only, and %s is %s", flag, in.Name, what)
	}
	return nil
}

// csvFlagSet returns the name of a CSV flag of the command given on the command line, or "".
func csvFlagSet(c *cli.Context) string {
	for _, f := range c.Command.Flags {
		if cf, ok := f.(cli.CategorizableFlag); ok && cf.GetCategory() == "CSV" && c.IsSet(f.Names()[0]) {
			return f.Names()[0]
		}
	}
	return ""
}

// csvOptions reads the CSV flags; a .tsv input defaults to tab-separated fields.
func csvOptions(c *cli.Context, input string) (importer.CSVOptions, error) {
	o := importer.CSVOptions{
		Type:  record.Type(c.String("csv-type")),
		Key:   c.String("key-column"),
		Value: c.String("value-column"),
		Field: c.String("field-column"),
		TTL:   c.String("ttl-column"),
		DB:    c.Int("db"),
	}
	if o.Type != "" && o.Type != record.String && o.Type != record.Hash {
		return o, fmt.Errorf("--csv-type %q (known: string, hash)", o.Type)
	}
	if o.DB < 0 || o.DB > record.MaxDB {
		return o, fmt.Errorf("--db %d out of range (0 to %d)", o.DB, record.MaxDB)
	}
	var d string // the default of the file's name, unless given
	if c.IsSet("delimiter") {
		d = c.String("delimiter")
	}
	var err error
	if o.Comma, err = importer.Delimiter(d, input); err != nil {
		return o, fmt.Errorf("--delimiter %w", err)
	}
	return o, nil
}
