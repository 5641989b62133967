package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "write an RDB file from JSON (rdb -c json, as an array or JSON Lines), CSV or another RDB file",
		UsageText: "rdbgen import data.jsonl -o dump.rdb [options]\nrdbgen import - -o dump.rdb < data.json.gz",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "input-format", Value: "auto", Usage: "input format: json, csv, rdb, or auto (an RDB file by its magic bytes, else by the name, else by the first byte)"},
			onDuplicateFlag(""),
			&cli.BoolFlag{Name: "skip-invalid", Usage: "skip malformed records, counting them, instead of stopping at the first"},
			&cli.StringFlag{Name: "csv-type", Usage: "CSV: string or hash (default: hash when there is a field column)", Category: "CSV"},
			&cli.StringFlag{Name: "key-column", Value: "key", Usage: "CSV: the column of the keys", Category: "CSV"},
			&cli.StringFlag{Name: "value-column", Value: "value", Usage: "CSV: the column of the values", Category: "CSV"},
			&cli.StringFlag{Name: "field-column", Value: "field", Usage: "CSV: the column of hash field names", Category: "CSV"},
			&cli.StringFlag{Name: "ttl-column", Usage: "CSV: the column of TTLs, a duration or seconds (default: ttl, if present)", Category: "CSV"},
			&cli.IntFlag{Name: "db", Usage: "CSV: the database of every key", Category: "CSV"},
			&cli.StringFlag{Name: "delimiter", Value: ",", Usage: "CSV: the field delimiter", Category: "CSV"},
		}, slices.Concat(fileFlags(), clusterFlags(), rewriteFlags(), functionFlags())...),
		Action: importAction,
	}
}

func importAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("import takes one input: a file, or - for stdin")
	}
	input := c.Args().First()
	onDup, err := onDuplicate(c)
	if err != nil {
		return err
	}
	opts := importer.Options{OnDuplicate: onDup, SkipInvalid: c.Bool("skip-invalid")}
	format := c.String("input-format")
	switch format {
	case "auto", importer.FormatJSON, importer.FormatCSV, formatRDB:
	default:
		return fmt.Errorf("--input-format %q (known: auto, json, csv, rdb)", format)
	}
	stdin := c.App.Reader
	if format == "auto" || format == formatRDB {
		isRDB, in, err := sniffRDB(input, stdin)
		if err != nil {
			return err
		}
		if in != nil {
			defer in.Close()
			stdin = in
		}
		if isRDB || format == formatRDB {
			j, err := newFileJob(c)
			if err != nil {
				return err
			}
			if err := j.readFunctionFlags(c); err != nil {
				return err
			}
			return convertRDB(c, j, input, stdin, rdbgen.ConvertOptions{Filter: filter.Options{Now: j.now}, DropFunctions: c.Bool("drop-functions")}, false, onDup)
		}
	}
	if err := checkFunctionFlags(c, false, false); err != nil {
		return err
	}
	csvOpts, err := csvOptions(c, input)
	if err != nil {
		return err
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	csvOpts.BaseTime = j.now

	// "last" reads the input twice: stdin is kept in a temporary file for the second time.
	path := input
	if input == "-" && opts.OnDuplicate == record.DupLast {
		dir := ""
		if j.out != "-" {
			// Where the output goes: a file's directory, or beside a cluster split's
			// directory, unless that is still to be made.
			dir = filepath.Dir(filepath.Clean(j.out))
			if _, err := os.Stat(dir); err != nil {
				dir = ""
			}
		}
		if path, err = importer.Spool(stdin, dir); err != nil {
			return fmt.Errorf("keep stdin for a second reading: %w", err)
		}
		defer os.Remove(path)
	}
	var opened []*importer.Input
	defer func() {
		for _, in := range opened {
			in.Close()
		}
	}()
	open := func() (importer.Reader, error) {
		in, err := importer.Open(path, stdin)
		if err != nil {
			return nil, err
		}
		opened = append(opened, in)
		if format == "auto" {
			format = importer.DetectFormat(input, in)
		}
		if format == importer.FormatCSV {
			return importer.NewCSVReader(in, csvOpts), nil
		}
		if flag := csvFlagSet(c); flag != "" {
			return nil, fmt.Errorf("--%s applies to CSV input only, and %s is JSON, whose records give their own db and type", flag, inputName(input))
		}
		return importer.NewJSONReader(in), nil
	}
	src := &importer.Source{Open: open, Options: opts}
	rewritten, rules, err := rewriteSource(c, src)
	if err != nil {
		return err
	}
	report, err := j.write(c, rewritten, func(m *manifest.Manifest) {
		m.Import = importManifest(input, format, src.Stats, opts)
		if rules != nil {
			m.Rewrite = rules
		}
	})
	if err != nil {
		return importError(input, err)
	}
	return report(importSummary(src.Stats), importNotes(input, src.Stats))
}

// importError names the input in an error about one of its lines.
func importError(input string, err error) error {
	var le *importer.LineError
	if errors.As(err, &le) || strings.HasPrefix(err.Error(), "line ") {
		return fmt.Errorf("%s: %w", inputName(input), err)
	}
	return err
}

// importCounts are the counts that the summaries of an import add to a generation's.
type importCounts struct {
	Records    uint64 `json:"records,omitempty"`
	Skipped    uint64 `json:"skipped,omitempty"`
	Duplicates uint64 `json:"duplicates,omitempty"`
	Expired    uint64 `json:"expired,omitempty"`
	// ExpiredFields counts the hash fields a convert dropped as expired, and ExpiredHashes
	// the hashes it dropped because every field had.
	ExpiredFields uint64 `json:"expired_fields,omitempty"`
	ExpiredHashes uint64 `json:"expired_hashes,omitempty"`

	functionCounts
}

// importSummary returns the summary's counts of an import.
func importSummary(s importer.Stats) importCounts {
	return importCounts{Records: s.Records, Skipped: s.Skipped, Duplicates: s.Duplicates, Expired: s.Expired}
}

// importManifest returns the manifest section of an import.
func importManifest(input, format string, stats importer.Stats, opts importer.Options) *manifest.Import {
	return &manifest.Import{Inputs: []string{input}, Format: format, Records: stats.Records,
		Skipped: stats.Skipped, Duplicates: stats.Duplicates, OnDup: string(opts.OnDuplicate)}
}

// importNotes tells what an import left out or what Redis will drop.
func importNotes(input string, s importer.Stats) string {
	var notes []string
	if s.Skipped > 0 {
		notes = append(notes, fmt.Sprintf("skipped %d invalid records (the first: %s: %v)", s.Skipped, inputName(input), s.FirstSkipped))
	}
	if s.Duplicates > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d duplicate keys", s.Duplicates))
	}
	if s.Expired > 0 {
		notes = append(notes, fmt.Sprintf("%d keys have already expired: Redis drops them at load", s.Expired))
	}
	if len(notes) == 0 {
		return ""
	}
	return "; " + strings.Join(notes, "; ")
}

func inputName(input string) string {
	if input == "-" {
		return "stdin"
	}
	return input
}

// csvFlagSet returns the name of a CSV flag given on the command line, or "".
func csvFlagSet(c *cli.Context) string {
	for _, f := range importCommand().Flags {
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
	d := c.String("delimiter")
	if !c.IsSet("delimiter") && strings.HasSuffix(strings.TrimSuffix(strings.ToLower(input), ".gz"), ".tsv") {
		d = "\t"
	}
	if d == `\t` {
		d = "\t"
	}
	r, size := utf8.DecodeRuneInString(d)
	if size == 0 || size != len(d) || r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError {
		return o, fmt.Errorf("--delimiter %q: want one character other than a quote or newline", d)
	}
	o.Comma = r
	return o, nil
}
