package main

import (
	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/encoder"
)

// thresholdFlag ties a flag, named like the Redis setting, to its field of
// encoder.Thresholds.
type thresholdFlag struct {
	name  string
	field func(*encoder.Thresholds) *int
	usage string
}

var thresholdFlags = []thresholdFlag{
	{"hash-max-listpack-entries", func(t *encoder.Thresholds) *int { return &t.HashMaxListpackEntries }, "most fields of a listpack/ziplist hash"},
	{"hash-max-listpack-value", func(t *encoder.Thresholds) *int { return &t.HashMaxListpackValue }, "longest field or value of a listpack/ziplist hash"},
	{"set-max-intset-entries", func(t *encoder.Thresholds) *int { return &t.SetMaxIntsetEntries }, "most members of an intset"},
	{"set-max-listpack-entries", func(t *encoder.Thresholds) *int { return &t.SetMaxListpackEntries }, "most members of a listpack set (RDB 11+)"},
	{"set-max-listpack-value", func(t *encoder.Thresholds) *int { return &t.SetMaxListpackValue }, "longest member of a listpack set"},
	{"zset-max-listpack-entries", func(t *encoder.Thresholds) *int { return &t.ZSetMaxListpackEntries }, "most members of a listpack/ziplist sorted set"},
	{"zset-max-listpack-value", func(t *encoder.Thresholds) *int { return &t.ZSetMaxListpackValue }, "longest member of a listpack/ziplist sorted set"},
	{"list-max-listpack-size", func(t *encoder.Thresholds) *int { return &t.ListMaxListpackSize }, "quicklist node limit: -1..-5 for 4..64 KiB, N>0 for N elements"},
	{"stream-node-max-bytes", func(t *encoder.Thresholds) *int { return &t.StreamNodeMaxBytes }, "most bytes of a stream node (0: 1 GiB)"},
	{"stream-node-max-entries", func(t *encoder.Thresholds) *int { return &t.StreamNodeMaxEntries }, "most entries of a stream node (0: no limit)"},
}

// encodingFlags returns the flags of the encoding thresholds, with Redis's defaults.
func encodingFlags() []cli.Flag {
	defaults := encoder.DefaultThresholds()
	flags := make([]cli.Flag, len(thresholdFlags))
	for i, f := range thresholdFlags {
		flags[i] = &cli.IntFlag{Name: f.name, Value: *f.field(&defaults), Usage: "as the Redis setting: " + f.usage, Category: "Encodings"}
	}
	return flags
}

// thresholdsFrom reads the encoding flags.
func thresholdsFrom(c *cli.Context) *encoder.Thresholds {
	t := encoder.DefaultThresholds()
	for _, f := range thresholdFlags {
		*f.field(&t) = c.Int(f.name)
	}
	return &t
}

// targetFrom reads --target: "" when it is not given, so that the encoder picks the oldest
// Redis that loads an --rdb-version given alone.
func targetFrom(c *cli.Context) string {
	if !c.IsSet("target") {
		return ""
	}
	return c.String("target")
}
