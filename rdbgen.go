// Package rdbgen builds Redis datasets offline: it streams records from any record.Source
// (a generated dataset, a spec file, a JSON or CSV import) into RDB snapshot files that
// Redis loads at start-up, one file or one file per shard of a Redis Cluster.
//
// Write and WriteShards write to io.Writers; package output puts complete files in place
// atomically, each with its manifest. The package never prints: long work reports through
// Options.Progress.
package rdbgen

import (
	"time"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// Options configure a write. The zero value works: the encoder's defaults (the default
// target, compression and checksum on) and no progress reports.
type Options struct {
	// Encoder configures the encoder.Writer of the file, or of every shard file.
	Encoder encoder.Options
	// Progress, if not nil, is called with the counts so far each time the encoder writes
	// its buffer to the destination (every MiB by default), and once at the end. Default
	// nil: no reports.
	Progress func(record.Progress)
}

// Result summarises a finished write of one file.
type Result struct {
	Stats encoder.Stats
	// DBs holds the keys, and keys with an expiry, of each database that has some.
	DBs        map[int]record.Counts
	RDBVersion int
	Target     string
	Duration   time.Duration
}

// ClusterResult summarises a write split into the shard files of a cluster.
type ClusterResult struct {
	// Shards holds each shard file's counts, in the layout's order.
	Shards []encoder.Stats
	// Total adds up the shards' keys, expiries, members and bytes (it has no checksum).
	Total      encoder.Stats
	RDBVersion int
	Target     string
	// Duration is the whole write's time; CountDuration the part of it spent on the first
	// pass that counts each shard's keys (0 when there was none: into files, whose headers
	// are filled in last, or from a source that cannot list its keys).
	Duration, CountDuration time.Duration
}
