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
			[]cli.Flag{skipUnsupportedFlag()}, fileFlags(), clusterFlags(), rewriteFlags(), functionFlags(), liveFlags()),
		Action: importAction,
	}
}

func importAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("import takes one input: a file, - for stdin, or a live server (redis://…)")
	}
	arg := c.Args().First()
	opts, err := fileOptions(c, arg)
	if err != nil {
		return err
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	opts.BaseTime = j.now
	in, err := input.Open(c.Context, arg, opts)
	if err != nil {
		return errInterrupted(err)
	}
	defer in.Close()
	if in.IsDump() {
		if err := checkFunctionFlags(c, true, j.opts.RESP != nil); err != nil {
			return err
		}
		return convertRDB(c, j, in, convert.Options{Filter: filter.Options{Now: j.now}, SkipUnsupported: c.Bool("skip-unsupported"), DropFunctions: c.Bool("drop-functions")}, opts.OnDuplicate)
	}
	// JSON holds libraries and module AUX data as a dump does (an export's); CSV none.
	if err := checkFunctionFlags(c, in.Kind != input.CSV, j.opts.RESP != nil); err != nil {
		return err
	}
	rewritten, rules, err := rewriteSource(c, in.Source)
	if err != nil {
		return err
	}
	// The target's checks of a dump's conversion: the same errors and ways out.
	conv, stats, err := convert.Through(rewritten, j.opts.Encoder, convert.Options{Filter: filter.Options{Now: j.now},
		SkipUnsupported: c.Bool("skip-unsupported"), DropFunctions: c.Bool("drop-functions")})
	if err != nil {
		return err
	}
	report, err := j.write(c, conv, func(m *manifest.Manifest) {
		m.Import = in.ImportManifest(opts.OnDuplicate)
		if rules != nil {
			m.Rewrite = rules
		}
	})
	if err != nil {
		return in.Err(err)
	}
	counts, notes := summary.ImportStats(in.Import.Stats), summary.ImportNotes(in)
	if d, ok := rewritten.(*record.Distinct); ok && d.Duplicates > 0 {
		counts.Duplicates += d.Duplicates
		notes += fmt.Sprintf("; dropped %d records of keys --rewrite renamed to one name (--on-duplicate)", d.Duplicates)
	}
	if stats.Unsupported > 0 {
		notes += fmt.Sprintf("; left out %d keys the target cannot hold (--skip-unsupported)", stats.Unsupported)
	}
	counts.FunctionCounts = summary.FunctionCounts{Functions: stats.Functions, FunctionsDropped: stats.FunctionsDropped, FunctionsDuplicate: in.Import.Stats.LibrariesDropped,
		ModuleAuxDuplicate: in.Import.Stats.ModuleAuxDropped}
	notes += counts.FunctionCounts.Suffix("with")
	return report(counts, notes)
}

// fileOptions reads the flags of an input file (inputFileFlags, --db) into the options of
// reading arg, as import and load do.
func fileOptions(c *cli.Context, arg string) (opts input.Options, err error) {
	if opts.OnDuplicate, err = onDuplicate(c); err != nil {
		return opts, err
	}
	if opts.Format = input.Kind(c.String("input-format")); !input.ValidFormat(opts.Format) {
		return opts, fmt.Errorf("--input-format %q (known: auto, json, csv, rdb)", opts.Format)
	}
	opts.SkipInvalid, opts.CSVOption = c.Bool("skip-invalid"), csvFlagSet(c)
	if opts.CSV, err = csvOptions(c, arg); err != nil {
		return opts, err
	}
	return opts, readingOptions(c, arg, &opts)
}

// openInput opens the input arg names ("-": the app's stdin) as opts say.
func openInput(c *cli.Context, arg string, opts input.Options) (*input.Input, error) {
	if err := readingOptions(c, arg, &opts); err != nil {
		return nil, err
	}
	return input.Open(c.Context, arg, opts)
}

// maxHeldBytes is the decoder's Options.MaxHeldBytes for every input (0: its default). No
// input is held, since each can be read twice; the tests lower it to show that.
var maxHeldBytes = 0

// readingOptions sets in opts what the reading of every input takes from the command: a live
// server's flags, the app's stdin, the reader's limit and --drop-newer.
func readingOptions(c *cli.Context, arg string, opts *input.Options) (err error) {
	if opts.Live, err = liveOptions(c, arg); err != nil {
		return err
	}
	if opts.Cluster, err = liveCluster(c, arg); err != nil {
		return err
	}
	opts.Stdin = c.App.Reader
	opts.Decoder.MaxHeldBytes = maxHeldBytes
	opts.Decoder.DropNewer = c.Bool("drop-newer") // false where the command has no such flag
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

// csvOptions reads the CSV flags, which input.Open checks; a .tsv input defaults to
// tab-separated fields.
func csvOptions(c *cli.Context, input string) (importer.CSVOptions, error) {
	o := importer.CSVOptions{
		Type:  record.Type(c.String("csv-type")),
		Key:   c.String("key-column"),
		Value: c.String("value-column"),
		Field: c.String("field-column"),
		TTL:   c.String("ttl-column"),
		DB:    c.Int("db"),
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
