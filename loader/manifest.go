package loader

import (
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/manifest"
)

// Manifest returns a manifest of d as loaded into a server at the time at: the
// counts and the dataset, without the fields of a file. verify.Server checks a
// loaded server against it, as rdbgen verify --addr does.
func Manifest(d *dataset.Spec, at time.Time) *manifest.Manifest {
	m := &manifest.Manifest{
		Format:    manifest.FormatVersion,
		Generator: "rdbgen " + encoder.Version + " load",
		CreatedAt: at.UTC(),
		Keys:      d.Count,
		Expires:   d.Expires(),
		DBs:       map[int]manifest.Counts{},
		Dataset:   d,
	}
	if d.Count > 0 {
		m.DBs[d.DB] = manifest.Counts{Keys: d.Count, Expires: d.Expires()}
	}
	return m
}
