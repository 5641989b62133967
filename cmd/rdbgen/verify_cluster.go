package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/verify"
)

// verifyClusterAction verifies the cluster dataset of a directory (rdbgen verify --cluster).
func verifyClusterAction(c *cli.Context) error {
	args := c.Args().Slice()
	switch {
	case len(args) == 0:
		return errors.New("--cluster needs the directory of the shard files (rdbgen verify --cluster dumps/)")
	case len(args) > 1:
		return fmt.Errorf("unexpected argument %q: verify --cluster takes one directory", args[1])
	}
	for _, name := range []string{"manifest", "container", "addr", "url"} {
		if c.IsSet(name) {
			return fmt.Errorf("--%s does not go with --cluster: each shard file has its manifest, and a fresh cluster is started", name)
		}
	}
	opts, err := verifyOptions(c)
	if err != nil {
		return err
	}
	bars := verifyBars(c)
	opts.Progress = bars.Update
	rep, err := verify.Cluster(c.Context, args[0], opts)
	bars.Finish()
	var res *verifyResult
	if rep != nil {
		res = &verifyResult{json: rep, pass: rep.Pass, reason: rep.Reason,
			write: func(w io.Writer) error { return verify.WriteClusterText(w, rep) }}
	}
	return endVerify(c, res, err)
}
