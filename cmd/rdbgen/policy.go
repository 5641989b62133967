package main

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
	"github.com/urfave/cli/v2"
)

// The policy flags: what a command does with what it reads that comes twice, or that its
// output cannot hold. Each is defined here once, and every command that reads or writes
// dumps takes each that applies to it, with this meaning (the errors that name them name
// the command's own: TestErrorsSuggestTheirCommandsFlags).

// onDuplicateFlag is --on-duplicate, of the commands that read records into an output;
// category groups it in the help.
func onDuplicateFlag(category string) cli.Flag {
	return &cli.StringFlag{Name: "on-duplicate", Value: string(record.DupError), Category: category,
		Usage: "a key (or function library) that comes again in its db: error, first (keep it) or last (keep the last; reads the input twice); " +
			"a key on two primaries of a live --cluster: first and last both keep the copy of the primary that owns its slot, and choose by the primaries' order only where that one holds none (the primaries are read twice)"}
}

// onDuplicate reads --on-duplicate.
func onDuplicate(c *cli.Context) (record.OnDuplicate, error) {
	d := record.OnDuplicate(c.String("on-duplicate"))
	if !d.Valid() {
		return "", fmt.Errorf("--on-duplicate %q (known: error, first, last)", d)
	}
	return d, nil
}

// skipUnsupportedFlag is --skip-unsupported, of the commands that write an RDB file from a
// dump or records.
func skipUnsupportedFlag() cli.Flag {
	return &cli.BoolFlag{Name: "skip-unsupported", Usage: fmt.Sprintf("leave out the keys the target cannot hold (field TTLs before RDB %d, streams before RDB %d, module values before RDB %d), counted, instead of failing", rdb.HashFieldTTL.Since(), rdb.Streams.Since(), rdb.ModuleValues.Since())}
}

// dropFieldTTLFlag is --drop-field-ttl, of the commands that write (or estimate) an RDB file.
func dropFieldTTLFlag() cli.Flag {
	return &cli.BoolFlag{Name: "drop-field-ttl", Usage: fmt.Sprintf("below RDB %d (for load and --format resp: a server before Redis 7.4), write hashes whose fields expire without the field TTLs, dropping the fields already expired (default: an error)", rdb.HashFieldTTL.Since())}
}

// dropNewerFlag is --drop-newer, of the commands that read a dump: what becomes of the parts
// of Redis 8.6+ records no earlier format holds.
func dropNewerFlag() cli.Flag {
	return &cli.BoolFlag{Name: "drop-newer", Category: "Functions",
		Usage: "read Redis 8.6+ records without what no earlier format holds (a stream's idempotent-producer metadata and NACK zone, a key's module metadata, arrays: the key left out), counting what was dropped, instead of stopping with an error naming the key"}
}

// functionFlags are the flags of the commands that read a dump into an output (convert,
// import, merge, load): what becomes of its function libraries (Redis 7.0+), its Redis 8.6+
// records and its module AUX data.
func functionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "drop-functions", Usage: fmt.Sprintf("leave out the input's function libraries (Redis %[2]s+), counting them, instead of carrying them (an RDB below %[1]d or a server before %[2]s cannot hold them: an error naming the library); --db, --match, --type and --sample keep them, as they are not keys", rdb.Functions.Since(), resp.FirstVersion(rdb.Functions)), Category: "Functions"},
		&cli.BoolFlag{Name: "replace-functions", Usage: "load function libraries with FUNCTION LOAD REPLACE, replacing a library of the same name the server has, instead of stopping with an error naming it (load and --format resp)", Category: "Functions"},
		dropNewerFlag(),
		&cli.BoolFlag{Name: "drop-module-aux", Usage: "leave out the dump's module AUX data (a module's data beside its keys, such as search index definitions), counting it, where no command carries it (load and --format resp) instead of stopping with an error naming the module; an RDB file carries it", Category: "Functions"},
	}
}
