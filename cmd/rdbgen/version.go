package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/internal/version"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the release, the commit and time it was built from, and the Go release that built it",
		UsageText: "rdbgen version [--json]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print it as JSON: release, module_version, revision, time, modified, go, platform"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("version takes no arguments, got %q (rdbgen version [--json])", c.Args().First())
			}
			return summary.Print(c.App.Writer, version.Get(), c.Bool("json"), false, func(io.Writer) error {
				cli.ShowVersion(c) // the line of rdbgen --version
				return nil
			})
		},
	}
}
