package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/resp"
)

// dropLostPendingFlag is --drop-lost-pending, of load and --format resp.
func dropLostPendingFlag() cli.Flag {
	return &cli.BoolFlag{Name: "drop-lost-pending", Usage: "rebuild every stream with commands, without what they cannot make " +
		"(pending entries whose entry was deleted; before Redis 6.2, consumers without pending entries), counted " +
		"(default: such a stream is sent as RESTORE)"}
}

// respFormat reads --format: resp writes the commands for the target's server instead of
// an RDB file, to one file or stdout, with no manifest; the function flags of the commands
// that read a dump (see checkFunctionFlags) go to the commands' options.
func (j *fileJob) respFormat(c *cli.Context) error {
	switch f := c.String("format"); {
	case f == "rdb" && c.Bool("drop-lost-pending"):
		return errors.New("--drop-lost-pending goes with --format resp: an RDB file carries every pending entry")
	case f == "rdb":
		return nil
	case f != "resp":
		return fmt.Errorf("--format %q: want rdb or resp", f)
	case isCluster(c):
		return errors.New("--format resp writes one stream of commands: it does not go with --cluster-shards or --slots-from")
	case c.IsSet("manifest"):
		return errors.New("--format resp writes no manifest: drop --manifest")
	}
	v, err := resp.TargetVersion(j.opts.Encoder.Target)
	if err != nil {
		return err
	}
	// A stream that commands cannot rebuild goes as RESTORE, its payload in the target's
	// RDB version (or --rdb-version).
	j.opts.RESP = &resp.Options{Server: v, RDBVersion: j.caps.RDBVersion, DropLostPending: c.Bool("drop-lost-pending"), DropFieldTTL: c.Bool("drop-field-ttl"),
		ReplaceFunctions: c.Bool("replace-functions"), DropModuleAux: c.Bool("drop-module-aux")}
	return nil
}
