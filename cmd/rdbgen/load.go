package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/dataset"
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
		UsageText: "rdbgen load --addr 127.0.0.1:6379 --count N [--type hash] [--method pipeline --batch 1000] [options]\n" +
			"rdbgen load --addr 127.0.0.1:6379 --spec dataset.yaml --manifest m.json\n" +
			"rdbgen load --addr 127.0.0.1:6379 data.jsonl (or - for stdin)\n" +
			"rdbgen load --url redis://:secret@127.0.0.1:6379/2 --count N --method parallel --workers 50\n" +
			"rdbgen load --cluster --addr 127.0.0.1:7000 --count N\n" +
			"rdbgen load --addr 127.0.0.1:6379 --method restore [--replace] dump.rdb",
		Flags: slices.Concat(
			builtinDatasetFlags(countUsage+", or --spec, or an input file", seedUsage),
			onlineInputFlags(),
			[]cli.Flag{
				dbMapFlag(),
				&cli.StringFlag{Name: "addr", Value: loader.DefaultAddr, Usage: "server address (with --cluster: any node of the cluster)"},
				&cli.StringFlag{Name: "url", Usage: "server URL, redis://[user:password@]host:port[/db] or rediss:// for TLS"},
				&cli.StringFlag{Name: "password", EnvVars: []string{"REDISCLI_AUTH"}, Usage: "password, when the URL has none"},
				&cli.BoolFlag{Name: "cluster", Usage: "the server is a Redis Cluster: send each key to its slot's primary"},
				shardIndexFlag(),
				baseTimeFlag(),
				&cli.StringFlag{Name: "method", Value: string(loader.DefaultMethod), Usage: "sequential, parallel, pipeline, mass or restore (one RESTORE per key, its value serialized for the server)"},
				&cli.BoolFlag{Name: "replace", Usage: "with --method restore: replace keys the server holds (RESTORE … REPLACE) instead of stopping at the first"},
				&cli.IntFlag{Name: "workers", Usage: "connections, each with its own goroutine", DefaultText: fmt.Sprintf("%d for parallel, else 1", loader.DefaultParallelWorkers)},
				&cli.IntFlag{Name: "batch", Usage: "commands per round trip with pipeline", DefaultText: strconv.Itoa(loader.DefaultBatch)},
				&cli.StringFlag{Name: "expiry", Value: string(resp.ExpiryAbsolute), Usage: "send expiries as pxat (exact) or px (time left)"},
				&cli.StringFlag{Name: "manifest", Usage: "write a manifest of the loaded records here, for rdbgen verify --addr"},
				&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "replace an existing --manifest file"},
				dropLostPendingFlag(),
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
	// The flags first, before the input is opened.
	opts, urlDB, err := connectionFromFlags(c)
	if err != nil {
		return err
	}
	if c.IsSet("force") && !c.IsSet("manifest") {
		return errors.New("--force goes with --manifest (it replaces an existing manifest file)")
	}
	if c.IsSet("replace") && opts.Method != loader.Restore {
		return fmt.Errorf("--replace goes with --method restore (%s replaces keys always)", opts.Method)
	}
	if c.IsSet("batch") && opts.Method != loader.Pipeline {
		return fmt.Errorf("--batch goes with --method pipeline, not %s", opts.Method)
	}
	var dbs loader.DBs
	var specMoved bool // a spec's families go to other databases than the file says
	if builtin := !c.IsSet("spec") && c.NArg() == 0; !builtin {
		if dbs, err = loadDBsFromFlags(c, urlDB); err != nil {
			return err
		}
	} else if c.IsSet("db-map") {
		return fmt.Errorf("--db-map goes with --spec or an input file: the dataset's keys go to --db")
	}
	in, err := inputFromFlags(c, now)
	if err != nil {
		return err
	}
	defer in.Close()
	switch {
	case in.Dataset != nil:
		if err := datasetDB(c, in.Dataset, urlDB); err != nil {
			return err
		}
	case in.Spec != nil:
		if specMoved, err = moveSpec(dbs, in.Spec); err != nil {
			return err
		}
	default:
		if err := dbs.CheckInput(c.Context, in.Records, in.Arg, in.Err); err != nil {
			return err
		}
		opts.MapDB = dbs.MapDB()
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
	opts.Cluster = c.Bool("cluster")
	opts.ReplaceFunctions = c.Bool("replace-functions")
	opts.DropModuleAux = c.Bool("drop-module-aux")
	opts.Workers = c.Int("workers")
	opts.Batch = c.Int("batch")
	opts.Expiry = resp.Expiry(c.String("expiry"))
	opts.DropLostPending = c.Bool("drop-lost-pending")
	opts.Replace = c.Bool("replace")

	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	total := in.Len()
	shard, err := loadShard(c)
	if err != nil {
		return err
	}
	if shard >= 0 {
		opts.Shard = &shard
		total = 0 // the shard's keys are known once read
	}
	var done func()
	opts.Progress, done = bar.Keys(c.App.ErrWriter, int64(total), quiet || asJSON || total == 0)
	res, err := loader.Load(c.Context, in.Records, opts)
	done()
	var le *loader.Error
	if errors.As(err, &le) && errors.Is(err, context.Canceled) {
		if le.Total > 0 {
			return fmt.Errorf("interrupted: %d of %d keys confirmed by %s", le.Confirmed, le.Total, le.Addr)
		}
		return fmt.Errorf("interrupted: %d keys confirmed by %s", le.Confirmed, le.Addr)
	}
	if err != nil {
		return in.Err(err)
	}

	sum := summary.FromLoad(&res, opts.Addr, c.String("manifest"))
	if in.Dataset != nil {
		sum.DB = in.Dataset.DB
	} else if dbs.Move {
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
	if in.Dataset == nil && !dbs.Move {
		where = sum.Addr
	}
	if opts.Cluster {
		where = fmt.Sprintf("the cluster of %s (%d primaries)", sum.Addr, len(res.Nodes))
	}
	return summary.Print(c.App.Writer, sum, asJSON, quiet, summary.Text(sum.Text(where)))
}

// connectionFromFlags returns the loader options of --addr, --url, --password and
// --method, and the database of --url, -1 when it names none.
func connectionFromFlags(c *cli.Context) (loader.Options, int, error) {
	opts := loader.Options{Addr: c.String("addr"), Password: c.String("password"), Method: loader.Method(c.String("method"))}
	if !c.IsSet("url") {
		return opts, -1, nil
	}
	if c.IsSet("addr") {
		return opts, -1, errors.New("--addr and --url both name the server: give one")
	}
	db, err := opts.SetURL(c.String("url"), c.IsSet("password"))
	switch {
	case errors.Is(err, loader.ErrTwoPasswords):
		return opts, -1, errors.New("--password (or $REDISCLI_AUTH) and the password of --url: give one")
	case errors.Is(err, loader.ErrUnixSocket):
		return opts, -1, fmt.Errorf("--url %w", err)
	case err != nil:
		return opts, -1, fmt.Errorf("--url: %w", err)
	}
	return opts, db, nil
}

// datasetDB takes the database of --url (urlDB, -1 for none) into d, the built-in
// dataset, unless --db says another: they must agree.
func datasetDB(c *cli.Context, d *dataset.Config, urlDB int) error {
	switch {
	case urlDB < 0:
	case !c.IsSet("db"):
		d.DB = urlDB
	case urlDB != d.DB:
		return fmt.Errorf("--db %d disagrees with the database %d of --url: give one", d.DB, urlDB)
	}
	return d.Validate()
}
