package summary

import (
	"fmt"

	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/server"
)

// Warnings returns the lines a run that wrote res says on stderr beside its summary: the
// temporary files of killed runs it removed before writing, and, for one RDB file, a db that
// a server with the default databases setting lacks, and so refuses at start-up.
func Warnings(res *output.Result) []string {
	var lines []string
	for _, path := range res.Stale {
		lines = append(lines, fmt.Sprintf("removed %s, the temporary file of an rdbgen run that was killed", path))
	}
	if maxDB := server.HighestDB(res.DBs); res.Shards == nil && res.RDBVersion != 0 && maxDB >= server.DefaultDatabases {
		lines = append(lines, fmt.Sprintf("warning: %s holds db %d: a server loads it only when configured with databases %d or more (the default is %d)",
			res.Path, maxDB, server.DatabasesFor(maxDB), server.DefaultDatabases))
	}
	return lines
}
