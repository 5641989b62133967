package main

import (
	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/rdb"
)

// encodingFlags returns the flags of the encoding thresholds, named like the Redis settings
// (rdb.ThresholdSettings), with Redis's defaults.
func encodingFlags() []cli.Flag {
	defaults := rdb.DefaultThresholds()
	flags := make([]cli.Flag, len(rdb.ThresholdSettings))
	for i, s := range rdb.ThresholdSettings {
		flags[i] = &cli.IntFlag{Name: s.Name, Value: *s.Of(&defaults), Usage: "as the Redis setting: " + s.Usage, Category: "Encodings"}
	}
	return flags
}

// thresholdsFrom reads the encoding flags.
func thresholdsFrom(c *cli.Context) *rdb.Thresholds {
	t := rdb.DefaultThresholds()
	for _, s := range rdb.ThresholdSettings {
		*s.Of(&t) = c.Int(s.Name)
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
