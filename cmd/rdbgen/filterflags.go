package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/filter"
)

// filterFlags are the flags of the commands that read a dump and keep some of its keys
// (convert, export).
func filterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntSliceFlag{Name: "db", Usage: "keep only these databases (repeat the flag or separate with commas)", Category: "Filters"},
		&cli.StringFlag{Name: "match", Usage: "keep only keys matching this glob (Redis rules: * ? [a-z] [^x] \\)", Category: "Filters"},
		&cli.StringSliceFlag{Name: "type", Usage: "keep only these types: string, list, set, zset, hash, stream, module, or module:NAME (the values of one module type, e.g. module:ReJSON-RL)", Category: "Filters"},
		&cli.Float64Flag{Name: "sample", Usage: "keep this fraction of the keys (0 to 1), chosen by a hash of --seed and the key", Category: "Filters"},
		&cli.Uint64Flag{Name: "seed", Usage: "seed of --sample", Category: "Filters"},
		&cli.BoolFlag{Name: "drop-expired", Usage: "drop keys and hash fields whose TTL has passed (at --base-time, default now)", Category: "Filters"},
	}
}

// filterOptions reads filterFlags and checks them; Now is left to the caller.
func filterOptions(c *cli.Context) (filter.Options, error) {
	f := filter.Options{
		Match:       c.String("match"),
		Sample:      c.Float64("sample"),
		Seed:        c.Uint64("seed"),
		DropExpired: c.Bool("drop-expired"),
	}
	if c.IsSet("db") {
		f.DBs = c.IntSlice("db")
	}
	if err := f.AddTypes(c.StringSlice("type")...); err != nil {
		return f, fmt.Errorf("--type: %w", err)
	}
	if c.IsSet("sample") && (f.Sample <= 0 || f.Sample > 1) {
		return f, fmt.Errorf("--sample %v: want a fraction above 0 and at most 1", f.Sample)
	}
	if err := f.Check(); err != nil {
		return f, fmt.Errorf("%s: %w", c.Command.Name, err)
	}
	return f, nil
}
