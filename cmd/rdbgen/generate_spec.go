package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/spec"
)

// generateSpecAction writes the key families of a spec file.
func generateSpecAction(c *cli.Context) error {
	for _, name := range datasetFlags {
		if c.IsSet(name) {
			return fmt.Errorf("--%s does not go with --spec: the spec file describes the keys", name)
		}
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	s, err := loadSpec(c, j.now.UnixMilli())
	if err != nil {
		return err
	}
	if isCluster(c) {
		return specClusterAction(c, j, s)
	}
	res, err := j.write(c, s.Keys(), func(dst io.Writer, progress func(rdbgen.Progress)) (rdbgen.Result, error) {
		return rdbgen.GenerateSpec(c.Context, dst, s, j.opts, progress)
	})
	if err != nil {
		return err
	}
	m := j.manifest(res)
	m.Spec = specManifest(c, s)
	dbs, by := s.DBs()
	for _, db := range dbs {
		var n manifest.Counts
		for _, f := range by[db] {
			n.Keys += f.Keys()
			n.Expires += f.Expires()
		}
		if n.Keys > 0 {
			m.DBs[db] = n
		}
	}
	return j.finish(res, m, generateSummary{}, "")
}

// specManifest returns the manifest section of a spec file's generation.
func specManifest(c *cli.Context, s *spec.Spec) *manifest.Spec {
	return &manifest.Spec{File: c.String("spec"), YAML: string(s.Source), Params: s.Params}
}

// loadSpec reads the --spec file and sets its parameters from --seed and --count-scale.
func loadSpec(c *cli.Context, baseTimeMS int64) (*spec.Spec, error) {
	path := c.String("spec")
	if path == "" {
		path = c.Args().First()
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	s, err := spec.ParseContext(c.Context, path, src)
	if err != nil {
		return nil, err
	}
	p := s.Params
	if c.IsSet("seed") {
		p.Seed = c.Uint64("seed")
	}
	p.BaseTimeMS = baseTimeMS
	p.CountScale = c.Float64("count-scale")
	if err := s.SetParamsContext(c.Context, p); err != nil {
		return nil, err
	}
	return s, nil
}

// manifestCounts returns the counts of a file of one database.
func manifestCounts(res rdbgen.Result) manifest.Counts {
	return manifest.Counts{Keys: res.Stats.Keys, Expires: res.Stats.Expires}
}
