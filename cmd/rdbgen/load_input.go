package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
	"github.com/rdbgen/rdbgen/spec"
)

// onlineInputFlags are the flags, beyond the built-in dataset's, of the inputs that load
// takes as generate and import do: a spec file, or a JSON or CSV file named by the
// argument.
func onlineInputFlags() []cli.Flag {
	return append(specInputFlags(), []cli.Flag{
		&cli.StringFlag{Name: "input-format", Value: "auto", Usage: "with an input file: json, csv, rdb, or auto (a dump by its magic bytes, else by the name, else by the first byte)", Category: "Input"},
		onDuplicateFlag("Input"),
		&cli.BoolFlag{Name: "skip-invalid", Usage: "with an input file: skip malformed records instead of stopping", Category: "Input"},
		&cli.StringFlag{Name: "csv-type", Usage: "CSV: string or hash (default: hash when there is a field column)", Category: "CSV"},
		&cli.StringFlag{Name: "key-column", Value: "key", Usage: "CSV: the column of the keys", Category: "CSV"},
		&cli.StringFlag{Name: "value-column", Value: "value", Usage: "CSV: the column of the values", Category: "CSV"},
		&cli.StringFlag{Name: "field-column", Value: "field", Usage: "CSV: the column of hash field names", Category: "CSV"},
		&cli.StringFlag{Name: "ttl-column", Usage: "CSV: the column of TTLs, a duration or seconds (default: ttl, if present)", Category: "CSV"},
		&cli.StringFlag{Name: "delimiter", Value: ",", Usage: "CSV: the field delimiter", Category: "CSV"},
	}...)
}

// specInputFlags are the flags of a spec file as the input of load and bench.
func specInputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "spec", Usage: "the key families of a spec file (YAML) instead of --count keys", Category: "Input"},
		&cli.Float64Flag{Name: "count-scale", Usage: "with --spec: multiply every family's count by this", Category: "Input"},
	}
}

// importOnlyFlags name the flags that go with an input file only.
var importOnlyFlags = []string{"input-format", "on-duplicate", "skip-invalid", "csv-type", "key-column", "value-column", "field-column", "ttl-column", "delimiter"}

// csvOnlyFlags name the flags that go with a CSV input only.
var csvOnlyFlags = []string{"csv-type", "key-column", "value-column", "field-column", "ttl-column", "delimiter"}

// notFor returns the error of the first of names that is set, for an input of format.
func notFor(c *cli.Context, format string, names ...string) error {
	for _, name := range names {
		if c.IsSet(name) {
			return fmt.Errorf("--%s does not apply to %s input", name, format)
		}
	}
	return nil
}

// An input is the record source that load's flags and argument name: the built-in
// dataset, a spec file or an import.
type input struct {
	src     record.Source
	dataset *dataset.Spec // the built-in dataset, or nil
	spec    *spec.Spec    // a spec file, or nil
	imp     *importer.Source
	dump    *rdbgen.ConvertStats // an RDB file's counts, once read; nil for other inputs
	read    *decoder.Stats       // with dump: the reader's counts, once read
	onDup   record.OnDuplicate   // with an input file: --on-duplicate
	rewrite *rewrite.Description // the --rewrite rules the records go through, or nil
	name    string               // the import's argument: a file, or - for stdin
	format  string               // the import's format, known once it has been read
	cleanup func()
}

// inputFromFlags returns the input that the flags and argument name; its cleanup must be
// called once it has been read.
func inputFromFlags(c *cli.Context, now time.Time) (*input, error) {
	now, err := baseTime(c, now) // --base-time, where the command has it (load)
	if err != nil {
		return nil, err
	}
	in := &input{cleanup: func() {}}
	switch {
	case c.NArg() > 1:
		return nil, fmt.Errorf("one input file at most, got %d arguments", c.NArg())
	case c.IsSet("spec") && c.NArg() > 0:
		return nil, fmt.Errorf("--spec and the input %q both name the records: give one", c.Args().First())
	}
	if c.NArg() == 0 {
		for _, name := range importOnlyFlags {
			if c.IsSet(name) {
				return nil, fmt.Errorf("--%s goes with an input file", name)
			}
		}
	}
	if !c.IsSet("spec") && c.IsSet("count-scale") {
		return nil, errors.New("--count-scale goes with --spec")
	}
	switch {
	case c.IsSet("spec"):
		for _, name := range datasetFlags {
			if c.IsSet(name) && name != "db" {
				return nil, fmt.Errorf("--%s does not go with --spec: the spec file describes the keys", name)
			}
		}
		s, err := loadSpec(c, now.UnixMilli())
		if err != nil {
			return nil, err
		}
		in.src, in.spec = s, s
	case c.NArg() == 1:
		for _, name := range datasetFlags {
			if c.IsSet(name) && name != "db" {
				return nil, fmt.Errorf("--%s does not go with an input file: the file holds the records", name)
			}
		}
		if c.IsSet("seed") {
			return nil, errors.New("--seed does not go with an input file")
		}
		if err := in.openImport(c, now); err != nil {
			return nil, err
		}
	default:
		if !c.IsSet("count") {
			return nil, errors.New("--count is required (the number of keys), or --spec FILE, or an input file")
		}
		d, err := datasetFromFlags(c, now)
		if err != nil {
			return nil, err
		}
		in.src, in.dataset = d, d
	}
	return in, nil
}

// holdingAll returns the oldest target that holds whatever a dump may (the encoder's
// capability table): load reads a dump through its target check only to count the records
// per database.
func holdingAll() string {
	t, _ := encoder.FirstTarget(encoder.Features()...)
	return t.Name
}

// openImport makes the input an import of the argument, as rdbgen import reads it.
func (in *input) openImport(c *cli.Context, now time.Time) error {
	in.name = c.Args().First()
	onDup, err := onDuplicate(c)
	if err != nil {
		return err
	}
	in.onDup = onDup
	opts := importer.Options{OnDuplicate: onDup, SkipInvalid: c.Bool("skip-invalid")}
	in.format = c.String("input-format")
	switch in.format {
	case "auto", importer.FormatJSON, importer.FormatCSV, formatRDB:
	default:
		return fmt.Errorf("--input-format %q (known: auto, json, csv, rdb)", in.format)
	}
	// stdin is read from r: once its first bytes have been looked at, from the reader that
	// keeps them.
	var r io.Reader = c.App.Reader
	if in.format == "auto" || in.format == formatRDB {
		isRDB, sniffed, err := sniffRDB(in.name, c.App.Reader)
		if err != nil {
			return err
		}
		if sniffed != nil {
			in.cleanup = func() { sniffed.Close() }
			r = sniffed
		}
		if isRDB || in.format == formatRDB {
			// A dump: its records as the reader gives them, counted for the manifest.
			in.format = formatRDB
			if err := notFor(c, "an RDB", append([]string{"skip-invalid"}, csvOnlyFlags...)...); err != nil {
				return err
			}
			in.read = &decoder.Stats{}
			// A repeated key is refused before any record is sent (CheckKeysFirst).
			src := rdbSource{path: in.name, stdin: r, read: in.read, opts: decoder.Options{OnDuplicate: onDup, CheckKeysFirst: true}}
			conv, stats, err := rdbgen.ConvertSource(src, encoder.Options{Target: holdingAll()}, rdbgen.ConvertOptions{DropFunctions: c.Bool("drop-functions")})
			if err != nil {
				return err
			}
			in.src, in.dump = conv, stats
			return nil
		}
	}
	csvOpts, err := csvOptions(c, in.name)
	if err != nil {
		return err
	}
	csvOpts.BaseTime = now
	path := in.name
	if path == "-" && opts.OnDuplicate == importer.DupLast { // read twice: keep stdin
		if path, err = importer.Spool(r, ""); err != nil {
			return fmt.Errorf("keep stdin for a second reading: %w", err)
		}
		closeStdin := in.cleanup
		in.cleanup = func() { os.Remove(path); closeStdin() }
	}
	var opened []*importer.Input
	done := in.cleanup
	in.cleanup = func() {
		for _, f := range opened {
			f.Close()
		}
		done()
	}
	in.imp = &importer.Source{Options: opts, Open: func() (importer.Reader, error) {
		f, err := importer.Open(path, r)
		if err != nil {
			return nil, err
		}
		opened = append(opened, f)
		if in.format == "auto" {
			in.format = importer.DetectFormat(in.name, f)
		}
		if in.format == importer.FormatJSON {
			if err := notFor(c, "a JSON", csvOnlyFlags...); err != nil {
				return nil, err
			}
		}
		if in.format == importer.FormatCSV {
			return importer.NewCSVReader(f, csvOpts), nil
		}
		return importer.NewJSONReader(f), nil
	}}
	in.src = in.imp
	return nil
}

// total returns the number of records, 0 when unknown.
func (in *input) total() uint64 {
	if s, ok := in.src.(record.Sizer); ok {
		return s.Len()
	}
	return 0
}

// err names the import's input in an error about one of its lines.
func (in *input) err(err error) error {
	if in.imp != nil && err != nil {
		return importError(in.name, err)
	}
	return err
}

// manifest returns the manifest of the input as loaded into a server at now: the keys the
// server confirmed in each database (loaded; those whose expiry had passed are not there)
// and what recomputes the records, without the fields of a file. A spec moved to other
// databases (moved) is left out: its file names the databases it was written for.
func (in *input) manifest(c *cli.Context, now time.Time, loaded map[int]record.Counts, moved bool) *manifest.Manifest {
	m := &manifest.Manifest{
		Format:    manifest.FormatVersion,
		Generator: "rdbgen " + encoder.Version + " load",
		CreatedAt: now.UTC(),
		DBs:       maps.Clone(loaded),
	}
	if m.DBs == nil {
		m.DBs = map[int]manifest.Counts{}
	}
	switch {
	case in.dataset != nil:
		m.Dataset = in.dataset
	case in.spec != nil && moved:
	case in.spec != nil:
		m.Spec = specManifest(c, in.spec)
	case in.dump != nil:
		m.Import = convertManifest(in.name, *in.dump, in.read.Duplicates, in.onDup)
	case in.imp != nil:
		m.Import = importManifest(in.name, in.format, in.imp.Stats, in.imp.Options)
		if in.rewrite != nil {
			m.Rewrite = in.rewrite
		}
	}
	for _, n := range m.DBs {
		m.Keys += n.Keys
		m.Expires += n.Expires
	}
	return m
}
