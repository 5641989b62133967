package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/loader"
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
var importOnlyFlags = flagNames(inputFileFlags("", ""))

// inputFromFlags returns the input that the flags and argument name, for load and bench; it
// must be closed once read.
func inputFromFlags(c *cli.Context, now time.Time) (*loader.Input, error) {
	now, err := baseTime(c, now) // --base-time, where the command has it (load)
	if err != nil {
		return nil, err
	}
	req := inputRequest(c, now, c.String("spec"))
	req.DatasetFlags = flagNames(builtinDatasetFlags("", ""), "seed", "db") // load moves a spec's or a file's keys to --db
	req.FileFlags = importOnlyFlags
	if err := refuseLive("load", c.Args().Slice()); err != nil {
		return nil, err
	}
	if c.NArg() == 1 {
		if req.Options, err = fileOptions(c, c.Args().First()); err != nil {
			return nil, err
		}
		// A repeated key of a dump is refused before any record is sent (CheckKeysFirst).
		req.BaseTime, req.Decoder.CheckKeysFirst = now, true
	}
	in, err := loader.OpenInput(c.Context, req, c.Bool("drop-functions"), c.Bool("drop-field-ttl"))
	if err != nil {
		return nil, errInterrupted(err)
	}
	return in, nil
}
