package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/spec"
)

// generateSpecAction writes the key families of a spec file.
func generateSpecAction(c *cli.Context) error {
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	req := inputRequest(c, j.now, c.String("spec"))
	req.DatasetFlags = datasetFlags
	in, err := input.OpenRequest(c.Context, req)
	if err != nil {
		return err
	}
	if j.opts.Layout != nil {
		for _, f := range in.Spec.Families {
			if f.DB != 0 {
				return fmt.Errorf("%s: family %s is in db %d: %w (a cluster node refuses other dbs)", in.Name, f.Name, f.DB, cluster.ErrDB)
			}
		}
	}
	report, err := j.write(c, in.Spec, func(m *manifest.Manifest) { m.Spec = in.SpecManifest() })
	if err != nil {
		return err
	}
	return report(summary.ImportCounts{}, "")
}

// inputRequest reads the flags and arguments that name a command's input into a request for
// input.OpenRequest: an input file, the spec file specPath, or the built-in dataset, their
// TTLs counting from now; a spec's seed and count scale are --seed's and --count-scale's.
func inputRequest(c *cli.Context, now time.Time, specPath string) input.Request {
	return input.Request{Args: c.Args().Slice(), Spec: specPath, Given: c.IsSet,
		Dataset: func() (*dataset.Config, error) { return datasetFromFlags(c, now) },
		Options: input.Options{BaseTime: now, SpecParams: func(p *spec.Params) {
			if c.IsSet("seed") {
				p.Seed = c.Uint64("seed")
			}
			p.CountScale = c.Float64("count-scale")
		}}}
}
