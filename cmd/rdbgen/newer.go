package main

import "github.com/urfave/cli/v2"

// newerFlag is --drop-newer, of the commands that read a dump into an output or compare
// dumps (convert, import, load, export, merge, diff): what becomes of the parts of Redis
// 8.6+ records no earlier format holds. inspect and verify read past them, counting them.
func newerFlag() cli.Flag {
	return &cli.BoolFlag{Name: "drop-newer", Category: "Functions",
		Usage: "read Redis 8.6+ records without what no earlier format holds (a stream's idempotent-producer metadata and NACK zone, a key's module metadata, arrays: the key left out), counting what was dropped, instead of stopping with an error naming the key"}
}
