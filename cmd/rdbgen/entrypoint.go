package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/image"
)

// entrypointCommand is the entrypoint of images built with rdbgen image --expiry-from-start:
// it moves the dump's expiries to the moment the container starts, then runs the server in
// its place. It needs no shell, so it works on images built FROM scratch.
func entrypointCommand() *cli.Command {
	return &cli.Command{
		Name:      "entrypoint",
		Usage:     "rebase a dump's expiries to now, then exec a command (the entrypoint of rdbgen image --expiry-from-start)",
		UsageText: "rdbgen entrypoint DUMP -- COMMAND [ARGS...]",
		Description: "Rewrites DUMP in place with every expiry moved from the dump's creation time to now\n" +
			"(as convert --rebase-expiry), then replaces itself with COMMAND and its arguments, found\n" +
			"in PATH. A missing DUMP (a volume mounted over the data directory) is left alone.",
		Hidden:          true,
		SkipFlagParsing: true, // everything after -- is the server's, flags included
		Action:          entrypointAction,
	}
}

func entrypointAction(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "--" {
		// It has no flags; say so as the flag package does for the other commands.
		return cliflags.ValueError(c, fmt.Errorf("flag provided but not defined: -%s", strings.TrimLeft(args[0], "-")))
	}
	if len(args) < 3 || args[1] != "--" {
		return fmt.Errorf("want DUMP -- COMMAND [ARGS...], got %q", args)
	}
	dump, command := args[0], args[2:]
	return image.Entrypoint(c.Context, dump, command, func(msg string) { fmt.Fprintf(c.App.ErrWriter, "rdbgen entrypoint: %s\n", msg) })
}
