package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// checkFunctionFlags refuses the function flags where they would do nothing: without a dump
// to read (fromDump false), and --replace-functions into an RDB file (resp false), which a
// server loads with no library of its own.
func checkFunctionFlags(c *cli.Context, fromDump, resp bool) error {
	for _, name := range []string{"drop-functions", "replace-functions", "drop-module-aux"} {
		if c.IsSet(name) && !fromDump {
			return fmt.Errorf("--%s goes with a dump as the input: only a dump holds function libraries and module AUX data", name)
		}
	}
	if c.IsSet("replace-functions") && !resp {
		return fmt.Errorf("--replace-functions goes with load and --format resp: a server loads an RDB file's libraries into none of its own")
	}
	if c.IsSet("drop-module-aux") && !resp {
		return fmt.Errorf("--drop-module-aux goes with load and --format resp: an RDB file carries module AUX data")
	}
	return nil
}
