package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/human"
)

// baseTimeFlag is --base-time: the time TTLs and relative timestamps count from, and the
// file's creation time, instead of now.
func baseTimeFlag() cli.Flag {
	return &cli.StringFlag{Name: "base-time", EnvVars: []string{envBaseTime}, Usage: "the time TTLs and relative timestamps count from, and the file's creation time: " +
		"RFC 3339 (2026-11-29T10:00:00Z), Unix seconds, or a duration from now (-48h); default now. The same flags and base time write the same bytes"}
}

// baseTime returns the time --base-time names, or now when it is not set.
func baseTime(c *cli.Context, now time.Time) (time.Time, error) {
	return timeFlag(c, "base-time", now)
}

// timeFlag returns the time the flag name names (RFC 3339, Unix seconds, or a duration from
// now), or now when it is not set. A time before 1970 or after 9999, which the ctime AUX field
// and the manifest cannot hold, is an error.
func timeFlag(c *cli.Context, name string, now time.Time) (time.Time, error) {
	s := strings.TrimSpace(c.String(name))
	if !c.IsSet(name) {
		return now, nil
	}
	t, ok := human.ParseTime(s, now)
	if !ok {
		return time.Time{}, fmt.Errorf("--%s %q: want an RFC 3339 time (2026-11-29T10:00:00Z), Unix seconds, or a duration from now (-48h), from 1970 to 9999", name, s)
	}
	return t, nil
}
