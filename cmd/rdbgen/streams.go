package main

import (
	"github.com/urfave/cli/v2"
)

// dropLostPendingFlag is --drop-lost-pending, of load and --format resp.
func dropLostPendingFlag() cli.Flag {
	return &cli.BoolFlag{Name: "drop-lost-pending", Usage: "rebuild every stream with commands, without what they cannot make " +
		"(pending entries whose entry was deleted; before Redis 6.2, consumers without pending entries), counted " +
		"(default: such a stream is sent as RESTORE)"}
}
