package main

import (
	"errors"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
)

func specCommand() *cli.Command {
	return &cli.Command{
		Name:  "spec",
		Usage: "work with dataset spec files",
		Subcommands: []*cli.Command{{
			Name:      "check",
			Usage:     "validate a spec file and estimate its file, writing nothing",
			UsageText: "rdbgen spec check dataset.yaml [options]",
			Flags: append([]cli.Flag{
				&cli.Uint64Flag{Name: "seed", Usage: "seed of the generators (default: the spec's)"},
				&cli.Float64Flag{Name: "count-scale", Usage: "multiply every family's count by this"},
				&cli.StringFlag{Name: "target", Value: rdb.DefaultTarget, Usage: "server to estimate the file for"},
				&cli.IntFlag{Name: "rdb-version", Usage: "RDB version instead of the target's"},
				&cli.BoolFlag{Name: "no-compress", Usage: "estimate without LZF compression"},
				dropFieldTTLFlag(),
				&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			}, encodingFlags()...),
			Action: specCheckAction,
		}},
	}
}

func specCheckAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("spec check takes one spec file")
	}
	req := inputRequest(c, time.Now(), c.Args().First())
	req.Args = nil // the argument is the spec file
	in, err := input.OpenRequest(c.Context, req)
	if err != nil {
		return err
	}
	res, err := summary.CheckSpec(c.Context, in.Spec, encoder.Options{
		Target:             targetFrom(c),
		RDBVersion:         c.Int("rdb-version"),
		DisableCompression: c.Bool("no-compress"),
		DropFieldTTL:       c.Bool("drop-field-ttl"),
		Thresholds:         thresholdsFrom(c),
	})
	if err != nil {
		return errInterrupted(err)
	}
	return summary.Print(c.App.Writer, res, c.Bool("json"), false, func(w io.Writer) error { return res.WriteText(w, in.Spec) })
}
