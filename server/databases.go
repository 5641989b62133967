package server

import (
	"slices"
	"strconv"

	"github.com/rdbgen/rdbgen/record"
)

// DefaultDatabases is the number of databases Redis and Valkey have unless the databases
// setting says otherwise: a file that holds db 16 or above loads only on a server configured
// with more.
const DefaultDatabases = 16

// DatabasesFor returns the databases setting that a file whose highest db is maxDB needs:
// maxDB+1, and at least DefaultDatabases.
func DatabasesFor(maxDB int) int { return max(maxDB+1, DefaultDatabases) }

// WithDatabases returns args with "--databases" set so that db maxDB exists, when the
// default is too few and args do not set it already; otherwise args as they are.
func WithDatabases(args []string, maxDB int) []string {
	if maxDB < DefaultDatabases || slices.Contains(args, "--databases") {
		return args
	}
	return append(slices.Clip(args), "--databases", strconv.Itoa(DatabasesFor(maxDB)))
}

// HighestDB returns the highest db of dbs that holds keys, -1 when none does: a server
// loads a file of them only with DatabasesFor(HighestDB(dbs)) databases or more.
func HighestDB(dbs map[int]record.Counts) int {
	maxDB := -1
	for db, n := range dbs {
		if n.Keys > 0 {
			maxDB = max(maxDB, db)
		}
	}
	return maxDB
}
