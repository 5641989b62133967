package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/dataset"
)

// datasetFlags describe the built-in dataset; --spec replaces them.
var datasetFlags = []string{"count", "type", "members", "key-prefix", "key-start", "value", "value-size", "ttl", "ttl-jitter", "db"}

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "write an RDB file (the default command)",
		UsageText: "rdbgen [generate] --count N -o dump.rdb [options]\nrdbgen [generate] --spec dataset.yaml -o dump.rdb [options]",
		Flags: append([]cli.Flag{
			&cli.Uint64Flag{Name: "count", Aliases: []string{"n"}, Usage: "number of keys to write (required without --spec)"},
			&cli.StringFlag{Name: "spec", Usage: "write the key families of a spec file (YAML) instead of --count keys"},
			&cli.Float64Flag{Name: "count-scale", Usage: "with --spec: multiply every family's count by this, e.g. 0.01 to try a spec small"},
			&cli.StringFlag{Name: "type", Value: string(dataset.TypeString), Usage: "type of every key: string, hash, list, set or zset"},
			&cli.StringFlag{Name: "members", Value: "10", Usage: "members of each collection (hash fields, elements): N or MIN-MAX"},
			&cli.StringFlag{Name: "key-prefix", Value: "key", Usage: "text before each key's number"},
			&cli.Uint64Flag{Name: "key-start", Value: 100000001, Usage: "number of the first key"},
			&cli.StringFlag{Name: "value", Value: string(dataset.ValueSame), Usage: "values: same (equal to the key) or random"},
			&cli.IntFlag{Name: "value-size", Usage: "bytes per value with --value random (default 64)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed for random values and TTL jitter (default with --spec: the spec's seed)"},
			&cli.DurationFlag{Name: "ttl", Usage: "expire keys this long after generation (e.g. 1h)"},
			&cli.DurationFlag{Name: "ttl-jitter", Usage: "spread expiries by up to ± this much"},
			&cli.IntFlag{Name: "db", Usage: "database number"},
		}, fileFlags()...),
		Action: generateAction,
	}
}

func generateAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (did you mean a command? see rdbgen --help)", c.Args().First())
	}
	if c.IsSet("spec") {
		return generateSpecAction(c)
	}
	if c.IsSet("count-scale") {
		return errors.New("--count-scale goes with --spec")
	}
	if !c.IsSet("count") {
		return errors.New("--count is required (the number of keys to write), or --spec FILE")
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	d := &dataset.Spec{
		Type:      dataset.Type(c.String("type")),
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
			return err
		}
		d.Members = members
	} else if c.IsSet("members") {
		return errors.New("--members goes with --type hash, list, set or zset")
	}
	if d.Value == dataset.ValueRandom && !c.IsSet("value-size") {
		d.ValueSize = 64
	}
	if d.TTL > 0 {
		d.BaseTimeMS = j.now.UnixMilli()
	}
	if err := d.Validate(); err != nil {
		return err
	}
	res, err := j.write(c, d.Count, func(dst io.Writer, progress func(rdbgen.Progress)) (rdbgen.Result, error) {
		return rdbgen.Generate(c.Context, dst, d, j.opts, progress)
	})
	if err != nil {
		return err
	}
	m := j.manifest(res)
	m.Dataset = d
	if d.Count > 0 {
		m.DBs[d.DB] = manifestCounts(res)
	}
	return j.finish(res, m, generateSummary{}, "")
}
