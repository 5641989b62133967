package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/bar"
	"github.com/rdbgen/rdbgen/internal/image"
	"github.com/rdbgen/rdbgen/internal/summary"
)

func imageCommand() *cli.Command {
	return &cli.Command{
		Name:  "image",
		Usage: "build a Docker image of Redis that starts with the dump loaded",
		UsageText: "rdbgen image DUMP -t TAG [options] [-- server arguments]\n" +
			"rdbgen image DUMP --context DIR [options]",
		Description: "The dump goes to /data in the base image, owned by the server's user; the image's\n" +
			"command starts the server on it with no save points and appendonly off, so that it\n" +
			"never writes the dump back (unless --persist). Arguments after -- are added to that\n" +
			"command, e.g. -- --maxmemory 1gb. A dump whose RDB version the base image's server\n" +
			"cannot load is refused before building. With --expiry-from-start the image carries\n" +
			"rdbgen, whose entrypoint moves the dump's expiries to the container's start before the\n" +
			"server runs; without it, a dump whose expiries pass within a day is warned about.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "tag", Aliases: []string{"t"}, Usage: "name and tag of the image, e.g. my/redis-seeded:1"},
			&cli.StringFlag{Name: "base", Value: image.DefaultBase, Usage: "image to build on"},
			&cli.BoolFlag{Name: "persist", Usage: "keep Redis's own save points: the server saves the dataset back to /data"},
			&cli.BoolFlag{Name: "expiry-from-start", Usage: "count the dump's TTLs from the container's start: the image carries rdbgen, whose entrypoint moves the expiries to now, then runs the server"},
			&cli.StringFlag{Name: "rdbgen-binary", Usage: "with --expiry-from-start, the Linux rdbgen executable the image carries, with its loader and libraries from this machine when linked dynamically (default: this one)"},
			&cli.StringFlag{Name: "context", Usage: "write the build context (Dockerfile and dump) into DIR instead of building"},
			&cli.StringFlag{Name: "owner", Value: image.DefaultOwner, Usage: "uid:gid that owns the dump in the image"},
			&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "build on a base image whose Redis release cannot be told; replace files in --context DIR"},
			&cli.StringFlag{Name: "docker-host", EnvVars: []string{"DOCKER_HOST"}, Usage: "docker engine address, as for docker -H"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no build output and no summary"},
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
		},
		Action: imageAction,
	}
}

func imageAction(c *cli.Context) error {
	// The dump comes first, then the server's arguments (after a "--" on the command line).
	args := c.Args().Slice()
	if len(args) == 0 || len(args) > 1 && !strings.HasPrefix(args[1], "-") {
		return fmt.Errorf("want one dump file, got %d arguments (rdbgen image DUMP -t TAG [-- server arguments])", len(args))
	}
	dump, serverArgs, tag, dir := args[0], args[1:], c.String("tag"), c.String("context")
	switch {
	case tag == "" && dir == "":
		return errors.New("-t TAG names the image to build (or --context DIR writes its build context)")
	case tag != "" && dir != "":
		return errors.New("-t and --context do not go together: --context writes the build context instead of building")
	}
	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	opts := image.Options{
		Base:            c.String("base"),
		Persist:         c.Bool("persist"),
		Owner:           c.String("owner"),
		Args:            serverArgs,
		Force:           c.Bool("force"),
		DockerHost:      c.String("docker-host"),
		ExpiryFromStart: c.Bool("expiry-from-start"),
	}
	if opts.ExpiryFromStart {
		if opts.Binary = c.String("rdbgen-binary"); opts.Binary == "" {
			// The running executable, when it is for the image's platform (NewPlan checks, and
			// finds the libraries of a dynamically linked one): no Go toolchain needed, and the
			// image runs the rdbgen that built it.
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("--expiry-from-start: find this executable: %w (name one with --rdbgen-binary)", err)
			}
			opts.Binary = exe
		}
	}
	if !quiet && !asJSON && bar.IsTerminal(c.App.ErrWriter) {
		opts.Progress = func(line string) { fmt.Fprintln(c.App.ErrWriter, line) }
	}
	sum, err := image.Make(c.Context, dump, tag, dir, opts)
	if err != nil {
		return errInterrupted(err)
	}
	for _, w := range sum.Warnings {
		fmt.Fprintf(c.App.ErrWriter, "rdbgen: warning: %s\n", w)
	}
	return summary.Print(c.App.Writer, sum, asJSON, quiet, sum.WriteText)
}
