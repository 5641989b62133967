package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/resp"
)

// dropLostPendingFlag is --drop-lost-pending, of load and --format resp.
func dropLostPendingFlag() cli.Flag {
	return &cli.BoolFlag{Name: "drop-lost-pending", Usage: "rebuild every stream with commands, without what they cannot make " +
		"(pending entries whose entry was deleted; before Redis 6.2, consumers without pending entries), counted " +
		"(default: such a stream is sent as RESTORE)"}
}

// streamsNote says, for the summary, what the streams needed: those sent as RESTORE, what
// --drop-lost-pending left out, and that no command sets the seen and active times of the
// consumers commands made; "" when there is nothing to say.
func streamsNote(s resp.StreamCounts) string {
	var notes []string
	if s.Restored > 0 {
		notes = append(notes, fmt.Sprintf("%d streams sent as RESTORE, since commands cannot make their pending entries whose entries were deleted or their consumers without pending entries", s.Restored))
	}
	if s.LostPending > 0 || s.LostConsumers > 0 {
		notes = append(notes, fmt.Sprintf("--drop-lost-pending left out %d pending entries whose entries were deleted and %d consumers without pending entries", s.LostPending, s.LostConsumers))
	}
	if s.Consumers > 0 {
		notes = append(notes, fmt.Sprintf("the %d stream consumers made by commands have the load's seen and active times: no command sets them", s.Consumers))
	}
	if len(notes) == 0 {
		return ""
	}
	return "streams: " + strings.Join(notes, "; ") + "\n"
}
