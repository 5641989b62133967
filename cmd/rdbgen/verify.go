package main

import (
	"errors"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/bar"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "check an RDB file, then load it into a real Redis and spot-check it",
		UsageText: "rdbgen verify dump.rdb [options]\n" +
			"rdbgen verify --addr 127.0.0.1:6379 --manifest dump.rdb.manifest.json\n" +
			"rdbgen verify --cluster dumps/ [options]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "manifest", Usage: "manifest to compare with (default FILE.manifest.json, when it exists)"},
			&cli.StringFlag{Name: "backend", Value: string(server.BackendAuto), Usage: "how to run Redis: auto (docker when the engine answers, else process), docker, process, or offline (check the file only)"},
			imageFlag("docker image of the fresh container"),
			redisServerFlag(),
			&cli.StringFlag{Name: "docker-host", EnvVars: []string{"DOCKER_HOST"}, Usage: "docker engine address (default the docker CLI's)"},
			&cli.StringFlag{Name: "container", Usage: "restart this existing container on the file instead of starting a fresh one"},
			&cli.DurationFlag{Name: "load-timeout", Value: server.DefaultLoadTimeout, Usage: "how long to wait for Redis to load the file"},
			&cli.StringFlag{Name: "addr", Usage: "check the live server at HOST:PORT instead of a file (needs --manifest)"},
			&cli.StringFlag{Name: "url", Usage: "check the live server at redis://[:PASSWORD@]HOST:PORT instead of a file (needs --manifest)"},
			passwordFileFlag(""),
			&cli.IntFlag{Name: "sample", Value: verify.DefaultSample, Usage: "number of records to spot-check (0: none)"},
			&cli.Uint64Flag{Name: "sample-seed", Usage: "seed of the sample, to repeat one (default random)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress and no report: only the exit status and the reason of a failure"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			&cli.StringFlag{Name: "for", Usage: "check the file against the rules of a managed service, named by its target: " + strings.Join(rdb.ServiceTargets(), ", ")},
			&cli.BoolFlag{Name: "cluster", Usage: "verify a cluster dataset: the argument is the directory of its shard files, loaded into a Redis Cluster of one primary per file"},
		},
		Action: verifyAction,
	}
}

// imageFlag is --image, the docker image of the servers that verify and bench start.
func imageFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "image", Value: server.DefaultImage, Usage: usage}
}

// redisServerFlag is --redis-server, the server that verify and bench start.
func redisServerFlag() cli.Flag {
	return &cli.StringFlag{Name: "redis-server", Value: server.DefaultRedisServer, Usage: "server executable (path or name in PATH; the command in a container)"}
}

func verifyAction(c *cli.Context) error {
	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	if err := refuseLive("verify", c.Args().Slice()); err != nil {
		return err
	}
	pw, _, err := password(c)
	if err != nil {
		return err
	}
	if pw != "" && c.IsSet("password-file") && !c.IsSet("addr") && !c.IsSet("url") {
		return errors.New("--password-file goes with --addr or --url: a server to check")
	}
	bars := bar.NewStages(c.App.ErrWriter, quiet || asJSON, verify.Measure)
	req := verify.Request{
		Password: pw,
		Args:     c.Args().Slice(), Addr: c.String("addr"), URL: c.String("url"), Manifest: c.String("manifest"), Cluster: c.Bool("cluster"), For: c.String("for"),
		Server: server.Options{
			Image:       c.String("image"),
			RedisServer: c.String("redis-server"),
			DockerHost:  c.String("docker-host"),
			Container:   c.String("container"),
			LoadTimeout: c.Duration("load-timeout"),
		},
		Sample: c.Int("sample"), Progress: bars.Update,
	}
	if c.IsSet("backend") {
		req.Backend = c.String("backend")
	}
	if seed := c.Uint64("sample-seed"); c.IsSet("sample-seed") {
		req.SampleSeed = &seed
	}
	res, err := verify.Run(c.Context, req)
	bars.Finish()
	if res != nil {
		// As JSON with --json (which wins over --quiet, as on every command), else for
		// people unless --quiet.
		if werr := summary.Print(c.App.Writer, res.JSON(), asJSON, quiet, res.WriteText); err == nil {
			err = werr
		}
	}
	if err != nil {
		return errInterrupted(err)
	}
	return res.Verdict()
}
