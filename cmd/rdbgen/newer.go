package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// newerFlag is --drop-newer, of the commands that read a dump into an output (convert,
// import, load): what becomes of the parts of Redis 8.6+ records no earlier format holds.
func newerFlag() cli.Flag {
	return &cli.BoolFlag{Name: "drop-newer", Category: "Functions",
		Usage: "read Redis 8.6+ records without what no earlier format holds (a stream's idempotent-producer metadata and NACK zone, a key's module metadata, arrays: the key left out), counting what was dropped, instead of stopping with an error naming the key"}
}

// newerNotes tells what --drop-newer dropped, for the one-line summary: "; " before it, or "".
func newerNotes(dropped map[string]uint64) string {
	if len(dropped) == 0 {
		return ""
	}
	var parts []string
	for _, what := range slices.Sorted(maps.Keys(dropped)) {
		parts = append(parts, fmt.Sprintf("%d %s", dropped[what], what))
	}
	return "; dropped " + strings.Join(parts, ", ") + " (--drop-newer)"
}
