package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// functionFlags are the flags of the commands that read a dump into an output (convert,
// import, load): what becomes of its function libraries (Redis 7.0+).
func functionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "drop-functions", Usage: "leave out the dump's function libraries (Redis 7.0+), counting them, instead of carrying them (an RDB below 10 or a server before 7.0 cannot hold them: an error naming the library); --db, --match, --type and --sample keep them, as they are not keys", Category: "Functions"},
		&cli.BoolFlag{Name: "replace-functions", Usage: "load function libraries with FUNCTION LOAD REPLACE, replacing a library of the same name the server has, instead of stopping with an error naming it (load and --format resp)", Category: "Functions"},
	}
}

// checkFunctionFlags refuses the function flags where they would do nothing: without a dump
// to read (fromDump false), and --replace-functions into an RDB file (resp false), which a
// server loads with no library of its own.
func checkFunctionFlags(c *cli.Context, fromDump, resp bool) error {
	for _, name := range []string{"drop-functions", "replace-functions"} {
		if c.IsSet(name) && !fromDump {
			return fmt.Errorf("--%s goes with a dump as the input: only a dump holds function libraries", name)
		}
	}
	if c.IsSet("replace-functions") && !resp {
		return fmt.Errorf("--replace-functions goes with load and --format resp: a server loads an RDB file's libraries into none of its own")
	}
	return nil
}

// functionNotes tells, for the one-line summary, the function libraries carried and left
// out.
func functionNotes(carried, dropped uint64, verb string) []string {
	var notes []string
	if carried > 0 {
		notes = append(notes, fmt.Sprintf("%s %d function %s", verb, carried, plural(carried, "library", "libraries")))
	}
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("left out %d function %s (--drop-functions)", dropped, plural(dropped, "library", "libraries")))
	}
	return notes
}

// plural returns one when n is 1, else many.
func plural(n uint64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
