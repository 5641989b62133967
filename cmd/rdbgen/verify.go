package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/redis/go-redis/v9"
	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/bar"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/record"
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
			&cli.IntFlag{Name: "sample", Value: verify.DefaultSample, Usage: "number of records to spot-check (0: none)"},
			&cli.Uint64Flag{Name: "sample-seed", Usage: "seed of the sample, to repeat one (default random)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress and no report: only the exit status and the reason of a failure"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
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

// verifyOutput is the JSON report: the package's, and the manifest's path.
type verifyOutput struct {
	Manifest string `json:"manifest,omitempty"`
	*verify.Report
}

func verifyAction(c *cli.Context) error {
	if c.Bool("cluster") {
		return verifyClusterAction(c)
	}
	args := c.Args().Slice()
	addr, url := c.String("addr"), c.String("url")
	live := addr != "" || url != ""
	var path string
	switch {
	case len(args) > 1:
		return fmt.Errorf("unexpected argument %q: verify takes one file", args[1])
	case len(args) == 1 && live:
		return errors.New("give a file or --addr/--url, not both")
	case len(args) == 1:
		path = args[0]
	case !live:
		return errors.New("no file to verify (rdbgen verify dump.rdb, or --addr HOST:PORT --manifest FILE)")
	case addr != "" && url != "":
		return errors.New("give --addr or --url, not both")
	}

	opts, err := verifyOptions(c)
	if err != nil {
		return err
	}
	if opts.Server.Container != "" && (opts.Offline || opts.Server.Backend == server.BackendProcess) {
		return fmt.Errorf("--container restarts a docker container: it does not go with --backend %s", c.String("backend"))
	}
	if live && (c.IsSet("backend") || c.IsSet("container")) {
		return errors.New("--addr and --url check a running server: --backend and --container do not apply")
	}

	manifestPath, err := verify.ReadManifest(c.String("manifest"), path, &opts)
	if err != nil {
		return err
	}
	if live && opts.Manifest == nil {
		return errors.New("--addr and --url need --manifest: what the server must hold")
	}

	bars := verifyBars(c)
	opts.Progress = bars.Update
	var rep *verify.Report
	if live {
		ro := &redis.Options{Addr: addr}
		if url != "" {
			if ro, err = redis.ParseURL(url); err != nil {
				return fmt.Errorf("--url: %w", err)
			}
		}
		rep, err = verify.Server(c.Context, ro, opts)
	} else {
		rep, err = verify.Dump(c.Context, path, opts)
	}
	bars.Finish()
	var res *verifyResult
	if rep != nil {
		res = &verifyResult{json: verifyOutput{Manifest: manifestPath, Report: rep}, pass: rep.Pass, reason: rep.Reason,
			write: func(w io.Writer) error { return verify.WriteText(w, rep, manifestPath) }}
	}
	return endVerify(c, res, err)
}

// A verifyResult is a finished verification, as the verify commands report it.
type verifyResult struct {
	json   any                   // what --json prints
	write  func(io.Writer) error // writes the report for people
	pass   bool
	reason string
}

// endVerify prints the report of res, unless there is none: as JSON with --json (which
// wins over --quiet, as on every command), else for people unless --quiet. It returns the
// command's error: err, else FAIL and the reason when the verification failed.
func endVerify(c *cli.Context, res *verifyResult, err error) error {
	if res != nil {
		var werr error
		switch {
		case c.Bool("json"):
			werr = summary.JSON(c.App.Writer, res.json)
		case !c.Bool("quiet"):
			werr = res.write(c.App.Writer)
		}
		if err == nil {
			err = werr
		}
	}
	if err != nil {
		return errInterrupted(err)
	}
	if !res.pass {
		return fmt.Errorf("FAIL: %s", res.reason)
	}
	return nil
}

// verifyOptions reads the flags of the sample and of the server to start.
func verifyOptions(c *cli.Context) (verify.Options, error) {
	opts := verify.Options{
		Sample:     c.Int("sample"),
		SampleSeed: c.Uint64("sample-seed"),
		Server: server.Options{
			Image:       c.String("image"),
			RedisServer: c.String("redis-server"),
			DockerHost:  c.String("docker-host"),
			Container:   c.String("container"),
			LoadTimeout: c.Duration("load-timeout"),
		},
	}
	if opts.Sample < 0 {
		return opts, fmt.Errorf("--sample %d is negative", opts.Sample)
	}
	if opts.Sample == 0 {
		opts.Sample = -1 // none, in the package's terms
	}
	if !c.IsSet("sample-seed") {
		opts.SampleSeed = verify.RandomSeed()
	}
	return opts, opts.SetBackend(c.String("backend"))
}

// verifyBars returns the bars of a verification's stages on stderr: bytes of the file, then
// of the load, then keys checked.
func verifyBars(c *cli.Context) *bar.Stages {
	return bar.NewStages(c.App.ErrWriter, c.Bool("quiet") || c.Bool("json"), func(p record.Progress) (int64, int64, string) {
		switch verify.Stage(p.Stage) {
		case verify.StageServer:
			return int64(p.Keys), int64(p.Total), "keys checked"
		case verify.StageLoad:
			return p.Bytes, p.TotalBytes, "bytes loaded"
		}
		return p.Bytes, p.TotalBytes, "bytes read"
	})
}
