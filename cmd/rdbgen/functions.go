package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/resp"
)

// functionFlags are the flags of the commands that read a dump into an output (convert,
// import, load): what becomes of its function libraries (Redis 7.0+).
func functionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "drop-functions", Usage: fmt.Sprintf("leave out the dump's function libraries (Redis %[2]s+), counting them, instead of carrying them (an RDB below %[1]d or a server before %[2]s cannot hold them: an error naming the library); --db, --match, --type and --sample keep them, as they are not keys", encoder.Functions.Since(), resp.FirstVersion(encoder.Functions)), Category: "Functions"},
		&cli.BoolFlag{Name: "replace-functions", Usage: "load function libraries with FUNCTION LOAD REPLACE, replacing a library of the same name the server has, instead of stopping with an error naming it (load and --format resp)", Category: "Functions"},
		newerFlag(),
		&cli.BoolFlag{Name: "drop-module-aux", Usage: "leave out the dump's module AUX data (a module's data beside its keys, such as search index definitions), counting it, where no command carries it (load and --format resp) instead of stopping with an error naming the module; an RDB file carries it", Category: "Functions"},
	}
}

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
