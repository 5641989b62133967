package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/cluster"
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
	if j.layout != nil {
		for _, f := range s.Families {
			if f.DB != 0 {
				return fmt.Errorf("%s: family %s is in db %d: %w (a cluster node refuses other dbs)", c.String("spec"), f.Name, f.DB, cluster.ErrDB)
			}
		}
	}
	report, err := j.write(c, s, func(m *manifest.Manifest) { m.Spec = specManifest(c, s) })
	if err != nil {
		return err
	}
	return report(importCounts{}, "")
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
