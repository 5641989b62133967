package main

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/internal/bar"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/resp"
)

func loadCommand() *cli.Command {
	return &cli.Command{
		Name:  "load",
		Usage: "put records into a running Redis or Redis Cluster through a client: the dataset, a spec file, a JSON/CSV file or a dump",
		UsageText: "rdbgen load --addr 127.0.0.1:6379 --count N [--type hash] [--method auto --batch 200] [options]\n" +
			"rdbgen load --addr 127.0.0.1:6379 --spec dataset.yaml --manifest m.json\n" +
			"rdbgen load --addr 127.0.0.1:6379 data.jsonl (or - for stdin)\n" +
			"rdbgen load --url redis://:secret@127.0.0.1:6379/2 --count N --method parallel --workers 50\n" +
			"rdbgen load --cluster --addr 127.0.0.1:7000 --count N\n" +
			"rdbgen load --addr 127.0.0.1:6379 --method restore [--replace] dump.rdb",
		Flags: slices.Concat(
			builtinDatasetFlags(countUsage+", or --spec, or an input file", seedUsage),
			onlineInputFlags(),
			[]cli.Flag{
				&cli.StringFlag{Name: "db-map", Usage: "with an input of several databases: where each goes, FROM=TO,… (e.g. 0=5,3=6); every database of the input needs one", Category: "Input"},
				&cli.StringFlag{Name: "addr", Value: loader.DefaultAddr, Usage: "server address (with --cluster: any node of the cluster)"},
				&cli.StringFlag{Name: "url", Usage: "server URL, redis://[user:password@]host:port[/db] or rediss:// for TLS"},
				&cli.StringFlag{Name: "password", EnvVars: []string{"REDISCLI_AUTH"}, Usage: "password, when the URL has none"},
				passwordFileFlag(""),
				&cli.BoolFlag{Name: "cluster", Usage: "the server is a Redis Cluster: send each key to its slot's primary"},
				shardIndexFlag(),
				shardCountFlag(),
				baseTimeFlag(),
				&cli.StringFlag{Name: "method", Value: string(loader.DefaultMethod), Usage: "auto (strings without TTL as MSET, with TTL as SET, other keys as RESTORE, commands where the server refuses those), sequential, parallel, pipeline, mass or restore (one RESTORE per key, its value serialized for the server)"},
				&cli.BoolFlag{Name: "replace", Usage: "with --method restore: replace keys the server holds (RESTORE … REPLACE) instead of stopping at the first"},
				&cli.IntFlag{Name: "workers", Usage: "connections, each with its own goroutine", DefaultText: fmt.Sprintf("%d for parallel, else 1", loader.DefaultParallelWorkers)},
				&cli.IntFlag{Name: "batch", Usage: "commands per round trip with pipeline, keys per MSET with auto", DefaultText: fmt.Sprintf("%d for pipeline, %d for auto", loader.DefaultBatch, loader.DefaultAutoBatch)},
				&cli.StringFlag{Name: "expiry", Value: string(resp.ExpiryAbsolute), Usage: "send expiries as pxat (exact) or px (time left)"},
				&cli.StringFlag{Name: "manifest", Usage: "write a manifest of the loaded records here, for rdbgen verify --addr"},
				&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "replace an existing --manifest file"},
				dropLostPendingFlag(),
				dropFieldTTLFlag(),
				skipUnsupportedFlag(),
			},
			summaryFlags(),
			rewriteFlags(),
			functionFlags(),
		),
		Action: loadAction,
	}
}

func loadAction(c *cli.Context) error {
	now := time.Now()
	pw, _, err := password(c)
	if err != nil {
		return err
	}
	// The flags first, before the input is opened.
	opts, dbs, err := loader.Target{
		Addr: c.String("addr"), AddrSet: c.IsSet("addr"), URL: c.String("url"),
		Password: pw, PasswordSet: c.IsSet("password") || c.IsSet("password-file"),
		Method: loader.Method(c.String("method")), Batch: c.Int("batch"), Replace: c.Bool("replace"), Cluster: c.Bool("cluster"),
		DB: c.Int("db"), DBSet: c.IsSet("db"), DBMap: c.String("db-map"),
		Dataset: !c.IsSet("spec") && c.NArg() == 0,
	}.Options()
	if err != nil {
		return err
	}
	if c.IsSet("force") && !c.IsSet("manifest") {
		return errors.New("--force goes with --manifest (it replaces an existing manifest file)")
	}
	in, err := inputFromFlags(c, now)
	if err != nil {
		return err
	}
	defer in.Close()
	specMoved := false // a spec's families go to other databases than the file says
	switch {
	case in.Dataset != nil:
		in.Dataset.DB = dbs.To
		err = in.Dataset.Validate()
	case in.Spec != nil:
		specMoved, err = dbs.MoveSpec(in.Spec)
	default:
		err = dbs.CheckInput(c.Context, in.Records, in.Arg, in.Err)
		opts.MapDB = dbs.MapDB()
	}
	if err != nil {
		return err
	}
	if c.IsSet("rewrite") {
		if in.Import == nil && in.Dump == nil {
			return errors.New("--rewrite applies to the records of an input file, not to generated ones")
		}
		if in.Records, in.Rewrite, err = rewriteSource(c, in.Records); err != nil {
			return err
		}
	}
	if err := checkFunctionFlags(c, in.Dump != nil, true); err != nil {
		return err
	}
	if m := c.String("manifest"); m != "" {
		// Refused now, not after the load: the manifest is written last.
		if err := atomicfile.Check(m, c.Bool("force")); err != nil {
			return fmt.Errorf("--manifest %w", err)
		}
	}
	opts.ReplaceFunctions = c.Bool("replace-functions")
	opts.DropModuleAux = c.Bool("drop-module-aux")
	opts.SkipUnsupported = c.Bool("skip-unsupported")
	opts.Workers = c.Int("workers")
	opts.Expiry = resp.Expiry(c.String("expiry"))
	opts.DropLostPending = c.Bool("drop-lost-pending")
	opts.DropFieldTTL = c.Bool("drop-field-ttl")

	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	total := in.Len()
	shard, shards, err := loadShard(c)
	if err != nil {
		return err
	}
	if shard >= 0 {
		opts.Shard, opts.Shards = &shard, shards
		total = 0 // the shard's keys are known once read
	}
	var done func()
	opts.Progress, done = bar.Keys(c.App.ErrWriter, int64(total), quiet || asJSON || total == 0)
	res, err := loader.Load(c.Context, in.Records, opts)
	done()
	if err != nil {
		return in.Err(loader.Interrupted(err))
	}

	sum := summary.FromLoad(&res, opts.Addr, c.String("manifest"))
	if dbs.Move {
		sum.DB = dbs.To
	}
	if in.Dump != nil {
		sum.FunctionsDropped = in.Dump.FunctionsDropped
		sum.NewerDropped = in.Read.NewerDropped
	}
	if sum.Manifest != "" {
		if err := manifest.Write(sum.Manifest, in.Manifest(&res, now, specMoved)); err != nil {
			return fmt.Errorf("loaded %d keys but wrote no manifest: %w", res.Keys, err)
		}
	}
	where := fmt.Sprintf("%s db %d", sum.Addr, sum.DB)
	if !dbs.Move {
		where = sum.Addr
	}
	if opts.Cluster {
		where = fmt.Sprintf("the cluster of %s (%d primaries)", sum.Addr, len(res.Nodes))
	}
	return summary.Print(c.App.Writer, sum, asJSON, quiet, summary.Text(sum.Text(where)))
}
