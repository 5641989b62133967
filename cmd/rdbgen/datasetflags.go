package main

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/record"
)

// builtinDatasetFlags are the flags that choose the records of the built-in
// dataset. generate, load and bench share them, so that each command makes
// byte for byte the same dataset; generate's usage of --count and --seed
// mentions --spec.
func builtinDatasetFlags(countUsage, seedUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.Uint64Flag{Name: "count", Aliases: []string{"n"}, Usage: countUsage},
		&cli.StringFlag{Name: "type", Value: string(record.String), Usage: "type of every key: string, hash, list, set, zset or stream"},
		&cli.StringFlag{Name: "members", Value: "10", Usage: "members of each collection (hash fields, elements): N or MIN-MAX"},
		&cli.StringFlag{Name: "key-prefix", Value: "key", Usage: "text before each key's number"},
		&cli.Uint64Flag{Name: "key-start", Value: 100000001, Usage: "number of the first key"},
		&cli.StringFlag{Name: "value", Value: string(dataset.ValueSame), Usage: "values: same (equal to the key) or random"},
		&cli.IntFlag{Name: "value-size", Usage: "bytes per value with --value random", DefaultText: "64"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: seedUsage},
		&cli.DurationFlag{Name: "ttl", Usage: "expire keys this long after the command starts (e.g. 1h)"},
		&cli.DurationFlag{Name: "ttl-jitter", Usage: "spread expiries by up to ± this much"},
		&cli.IntFlag{Name: "db", Usage: "database number"},
	}
}

// Usage of --count and --seed outside generate.
const (
	countUsage = "number of keys (required)"
	seedUsage  = "seed for random values and TTL jitter"
)

// datasetFlags names the built-in dataset's flags that --spec replaces: all
// but --seed, which overrides a spec's seed.
var datasetFlags = flagNames(builtinDatasetFlags("", ""), "seed")

// flagNames returns the names of flags, but those of except.
func flagNames(flags []cli.Flag, except ...string) []string {
	var names []string
	for _, f := range flags {
		if name := f.Names()[0]; !slices.Contains(except, name) {
			names = append(names, name)
		}
	}
	return names
}

// summaryFlags choose how a command reports when it is done.
func summaryFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress and no summary"},
		&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
	}
}

// noArgs refuses positional arguments: every input is a flag.
func noArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (did you mean a command? see rdbgen --help)", c.Args().First())
	}
	return nil
}

// datasetFromFlags returns the checked dataset that the flags of
// datasetFlags describe, --count given. Expiries count from now.
func datasetFromFlags(c *cli.Context, now time.Time) (*dataset.Config, error) {
	d := &dataset.Config{
		Type:      record.Type(c.String("type")),
		Count:     c.Uint64("count"),
		KeyPrefix: c.String("key-prefix"),
		KeyStart:  c.Uint64("key-start"),
		Value:     dataset.ValueMode(c.String("value")),
		ValueSize: c.Int("value-size"),
		Seed:      c.Uint64("seed"),
		DB:        c.Int("db"),
		TTL:       c.Duration("ttl"),
		TTLJitter: c.Duration("ttl-jitter"),
	}
	if !d.Type.IsString() {
		members, err := dataset.ParseRange(c.String("members"))
		if err != nil {
			return nil, err
		}
		d.Members = members
	} else if c.IsSet("members") {
		return nil, errors.New("--members goes with --type hash, list, set, zset or stream")
	}
	if d.Value == dataset.ValueRandom && !c.IsSet("value-size") {
		d.ValueSize = 64
	}
	if d.TTL > 0 || d.Type == record.Stream {
		d.BaseTimeMS = now.UnixMilli() // expiries and stream ids count from it
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}
