package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
)

// onlineInputFlags are the flags, beyond the built-in dataset's, of the inputs that load
// takes as generate and import do: a spec file, or a JSON or CSV file named by the
// argument.
func onlineInputFlags() []cli.Flag {
	return append(specInputFlags(), inputFileFlags("Input", "with an input file: ")...)
}

// inputFileFlags are the flags of reading an input file, as import and load do (the CSV
// flags but --db, which each command has its own); category groups the first ones in the
// help and prefix starts their usage.
func inputFileFlags(category, prefix string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "input-format", Value: "auto", Usage: prefix + "json, csv, rdb, or auto (a dump by its magic bytes, else by the name, else by the first byte)", Category: category},
		onDuplicateFlag(category),
		&cli.BoolFlag{Name: "skip-invalid", Usage: prefix + "skip malformed records, counting them, instead of stopping at the first", Category: category},
		&cli.StringFlag{Name: "csv-type", Usage: "CSV: string or hash (default: hash when there is a field column)", Category: "CSV"},
		&cli.StringFlag{Name: "key-column", Value: "key", Usage: "CSV: the column of the keys", Category: "CSV"},
		&cli.StringFlag{Name: "value-column", Value: "value", Usage: "CSV: the column of the values", Category: "CSV"},
		&cli.StringFlag{Name: "field-column", Value: "field", Usage: "CSV: the column of hash field names", Category: "CSV"},
		&cli.StringFlag{Name: "ttl-column", Usage: "CSV: the column of TTLs, a duration or seconds (default: ttl, if present)", Category: "CSV"},
		&cli.StringFlag{Name: "delimiter", Value: ",", Usage: "CSV: the field delimiter", Category: "CSV"},
	}
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

// A loadInput is the record source that load's and bench's flags and argument name: the
// built-in dataset, a spec file or an input file, and what load tells of it.
type loadInput struct {
	*input.Input
	src     record.Source        // what is loaded: the input's records, through --rewrite
	dump    *convert.Stats       // a dump's counts, once read; nil for other inputs
	onDup   record.OnDuplicate   // with an input file: --on-duplicate
	rewrite *rewrite.Description // the --rewrite rules the records go through, or nil
}

// inputFromFlags returns the input that the flags and argument name; it must be closed once
// read.
func inputFromFlags(c *cli.Context, now time.Time) (*loadInput, error) {
	now, err := baseTime(c, now) // --base-time, where the command has it (load)
	if err != nil {
		return nil, err
	}
	req := inputRequest(c, now, c.String("spec"))
	req.DatasetFlags = slices.DeleteFunc(slices.Clone(datasetFlags), func(name string) bool { return name == "db" }) // load moves a spec's or a file's keys to --db
	req.FileFlags = importOnlyFlags
	in := &loadInput{}
	if c.NArg() == 1 {
		if req.Options, err = fileOptions(c, c.Args().First()); err != nil {
			return nil, err
		}
		// A repeated key of a dump is refused before any record is sent (CheckKeysFirst).
		req.BaseTime, req.Decoder.CheckKeysFirst, in.onDup = now, true, req.OnDuplicate
	}
	if in.Input, err = input.OpenRequest(c.Context, req); err != nil {
		return nil, errInterrupted(err)
	}
	in.src = in.Source
	if in.Kind == input.Live {
		in.Close()
		return nil, fmt.Errorf("load reads no live server (%s) yet: write it to a file first (rdbgen convert %s -o dump.rdb)", in.Name, in.Name)
	}
	if in.Kind == input.RDB {
		// A dump: its records as the reader gives them, counted for the manifest.
		if in.src, in.dump, err = convert.Count(in.Source, convert.Options{DropFunctions: c.Bool("drop-functions")}); err != nil {
			in.Close()
			return nil, err
		}
	}
	return in, nil
}

// manifest returns the manifest of the input as loaded into a server at now (res): what
// recomputes the records added to the loader's. A spec moved to other databases (moved) is
// left out: its file names the databases it was written for.
func (in *loadInput) manifest(now time.Time, res *loader.Result, moved bool) *manifest.Manifest {
	m := res.Manifest(now)
	switch {
	case in.Dataset != nil:
		m.Dataset = in.Dataset
	case in.Spec != nil && !moved:
		m.Spec = in.SpecManifest()
	case in.dump != nil:
		m.Import = in.DumpManifest(in.dump.Read, in.dump.Unsupported, in.onDup)
	case in.Import != nil:
		m.Import = in.ImportManifest(in.onDup)
		if in.rewrite != nil {
			m.Rewrite = in.rewrite // not a nil pointer in the interface
		}
	}
	return m
}
