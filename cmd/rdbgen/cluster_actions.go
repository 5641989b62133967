package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// The cluster forms of generate, generate --spec and import: the same records, split by
// hash slot into a directory of shard files (see clusterJob).

// generateClusterAction splits the dataset d.
func generateClusterAction(c *cli.Context, j *fileJob, d *dataset.Spec) error {
	if d.DB != 0 {
		return fmt.Errorf("--db %d: %w (a cluster node refuses other dbs)", d.DB, cluster.ErrDB)
	}
	cj, err := newClusterJob(c, j)
	if err != nil {
		return err
	}
	res, err := cj.write(c, d.Count, func(dsts []io.Writer, progress func(record.Progress)) (rdbgen.ClusterResult, error) {
		return rdbgen.WriteShards(c.Context, dsts, d, cj.layout, rdbgen.Options{Encoder: j.opts, Progress: progress})
	})
	if err != nil {
		return err
	}
	return cj.finish(res, func(m *manifest.Manifest) { m.Dataset = d }, clusterSummary{}, "")
}

// specClusterAction splits the records of the spec file s.
func specClusterAction(c *cli.Context, j *fileJob, s *spec.Spec) error {
	for _, f := range s.Families {
		if f.DB != 0 {
			return fmt.Errorf("%s: family %s is in db %d: %w (a cluster node refuses other dbs)", c.String("spec"), f.Name, f.DB, cluster.ErrDB)
		}
	}
	cj, err := newClusterJob(c, j)
	if err != nil {
		return err
	}
	res, err := cj.write(c, s.Keys(), func(dsts []io.Writer, progress func(record.Progress)) (rdbgen.ClusterResult, error) {
		return rdbgen.WriteShards(c.Context, dsts, s, cj.layout, rdbgen.Options{Encoder: j.opts, Progress: progress})
	})
	if err != nil {
		return err
	}
	return cj.finish(res, func(m *manifest.Manifest) { m.Spec = specManifest(c, s) }, clusterSummary{}, "")
}

// importClusterAction splits the records of an import; *format is the input's format once
// it has been opened.
func importClusterAction(c *cli.Context, j *fileJob, input string, format *string, open func() (importer.Reader, error), opts importer.Options) error {
	cj, err := newClusterJob(c, j)
	if err != nil {
		return err
	}
	var stats importer.Stats
	res, err := cj.write(c, 0, func(dsts []io.Writer, progress func(record.Progress)) (rdbgen.ClusterResult, error) {
		src := &importer.Source{Open: open, Options: opts}
		res, err := rdbgen.WriteShards(c.Context, dsts, src, cj.layout, rdbgen.Options{Encoder: j.opts, Progress: progress})
		stats = src.Stats
		return res, err
	})
	if err != nil {
		return importError(input, err)
	}
	return cj.finish(res, func(m *manifest.Manifest) { m.Import = importManifest(input, *format, stats, opts) },
		clusterSummary{importCounts: importSummary(stats)}, importNotes(input, stats))
}
