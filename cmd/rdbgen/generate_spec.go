package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/summary"
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
	s, err := loadSpec(c, j.now)
	if err != nil {
		return err
	}
	if j.opts.Layout != nil {
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
	return report(summary.ImportCounts{}, "")
}

// specManifest returns the manifest section of a spec file's generation.
func specManifest(c *cli.Context, s *spec.Spec) *manifest.SpecFile {
	return &manifest.SpecFile{File: c.String("spec"), YAML: string(s.Source), Params: s.Params}
}

// loadSpec reads the --spec file (else the argument) and sets its parameters from
// --seed and --count-scale, its TTLs counting from now.
func loadSpec(c *cli.Context, now time.Time) (*spec.Spec, error) {
	in, err := openSpec(c, now)
	if err != nil {
		return nil, err
	}
	return in.Spec, nil
}

// openSpec opens the --spec file (else the argument) as loadSpec reads it.
func openSpec(c *cli.Context, now time.Time) (*input.Input, error) {
	path := c.String("spec")
	if path == "" {
		path = c.Args().First()
	}
	return input.Open(c.Context, path, input.Options{Format: input.Spec, BaseTime: now, SpecParams: func(p *spec.Params) {
		if c.IsSet("seed") {
			p.Seed = c.Uint64("seed")
		}
		p.CountScale = c.Float64("count-scale")
	}})
}
