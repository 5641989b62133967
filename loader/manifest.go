package loader

import (
	"maps"
	"time"

	"github.com/rdbgen/rdbgen/internal/version"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

// Manifest returns the manifest of a load that ended at now: the keys the server confirmed in
// each database (those whose expiry had passed are not there), without the fields of a file.
// What recomputes the records (dataset, spec, import) is the caller's to add.
func (res *Result) Manifest(now time.Time) *manifest.Manifest {
	m := &manifest.Manifest{
		Format:    manifest.FormatVersion,
		Generator: "rdbgen " + version.Release() + " load",
		CreatedAt: now.UTC(),
		DBs:       maps.Clone(res.DBs),
	}
	if m.DBs == nil {
		m.DBs = map[int]record.Counts{}
	}
	for _, n := range m.DBs {
		m.Keys += n.Keys
		m.Expires += n.Expires
	}
	return m
}
