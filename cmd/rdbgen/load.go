package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

func loadCommand() *cli.Command {
	return &cli.Command{
		Name:  "load",
		Usage: "put records into a running Redis or Redis Cluster through a client: the dataset, a spec file, a JSON/CSV file or a dump",
		UsageText: "rdbgen load --addr 127.0.0.1:6379 --count N [--type hash] [--method pipeline --batch 1000] [options]\n" +
			"rdbgen load --addr 127.0.0.1:6379 --spec dataset.yaml --manifest m.json\n" +
			"rdbgen load --addr 127.0.0.1:6379 data.jsonl (or - for stdin)\n" +
			"rdbgen load --url redis://:secret@127.0.0.1:6379/2 --count N --method parallel --workers 50\n" +
			"rdbgen load --cluster --addr 127.0.0.1:7000 --count N",
		Flags: slices.Concat(
			builtinDatasetFlags(countUsage+", or --spec, or an input file", seedUsage),
			onlineInputFlags(),
			[]cli.Flag{
				&cli.StringFlag{Name: "addr", Value: loader.DefaultAddr, Usage: "server address (with --cluster: any node of the cluster)"},
				&cli.StringFlag{Name: "url", Usage: "server URL, redis://[user:password@]host:port[/db] or rediss:// for TLS"},
				&cli.StringFlag{Name: "password", EnvVars: []string{"REDISCLI_AUTH"}, Usage: "password, when the URL has none"},
				&cli.BoolFlag{Name: "cluster", Usage: "the server is a Redis Cluster: send each key to its slot's primary"},
				shardIndexFlag(),
				baseTimeFlag(),
				&cli.StringFlag{Name: "method", Value: string(loader.DefaultMethod), Usage: "sequential, parallel, pipeline or mass"},
				&cli.IntFlag{Name: "workers", Usage: "connections, each with its own goroutine", DefaultText: fmt.Sprintf("%d for parallel, else 1", loader.DefaultParallelWorkers)},
				&cli.IntFlag{Name: "batch", Usage: "commands per round trip with pipeline", DefaultText: strconv.Itoa(loader.DefaultBatch)},
				&cli.StringFlag{Name: "expiry", Value: string(loader.ExpiryAbsolute), Usage: "send expiries as pxat (exact) or px (time left)"},
				&cli.StringFlag{Name: "manifest", Usage: "write a manifest of the loaded records here, for rdbgen verify --addr"},
				&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "replace an existing --manifest file"},
			},
			summaryFlags(),
			rewriteFlags(),
		),
		Action: loadAction,
	}
}

// loadSummary is what load reports when it is done.
type loadSummary struct {
	Addr          string                     `json:"addr"`
	DB            int                        `json:"db"`
	Method        string                     `json:"method"`
	Workers       int                        `json:"workers"`
	Batch         int                        `json:"batch"`
	Keys          uint64                     `json:"keys"`
	Expires       uint64                     `json:"expires"`
	Nodes         map[string]manifest.Counts `json:"nodes,omitempty"`
	Seconds       float64                    `json:"seconds"`
	KeysPerSecond float64                    `json:"keys_per_second"`
	Manifest      string                     `json:"manifest,omitempty"`
}

func loadAction(c *cli.Context) error {
	now := time.Now()
	in, err := inputFromFlags(c, now)
	if err != nil {
		return err
	}
	defer in.cleanup()
	if c.IsSet("rewrite") {
		if in.imp == nil && in.dump == nil {
			return errors.New("--rewrite applies to the records of an input file, not to generated ones")
		}
		if in.src, in.rewrite, err = rewriteSource(c, in.src); err != nil {
			return err
		}
	}
	if m := c.String("manifest"); m != "" {
		// Refused now, not after the load: the manifest is written last.
		if err := atomicfile.Check(m, c.Bool("force")); err != nil {
			return fmt.Errorf("--manifest %w", err)
		}
	}
	opts, err := connectionFromFlags(c, in.dataset)
	if err != nil {
		return err
	}
	opts.Cluster = c.Bool("cluster")
	opts.Method = loader.Method(c.String("method"))
	opts.Workers = c.Int("workers")
	opts.Batch = c.Int("batch")
	opts.Expiry = loader.Expiry(c.String("expiry"))

	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	total := in.total()
	shard, err := loadShard(c)
	if err != nil {
		return err
	}
	if shard >= 0 {
		opts.Shard = &shard
		total = 0 // the shard's keys are known once read
	}
	bar := newBar(c.App.ErrWriter, int64(total), "keys", quiet || asJSON || total == 0)
	if bar != nil {
		opts.Progress = func(p record.Progress) { bar.Set64(int64(p.Keys)) }
	}
	res, err := loader.Load(c.Context, in.src, opts)
	if bar != nil {
		bar.Finish()
	}
	var le *loader.Error
	if errors.As(err, &le) && errors.Is(err, context.Canceled) {
		if le.Total > 0 {
			return fmt.Errorf("interrupted: %d of %d keys confirmed by %s", le.Confirmed, le.Total, le.Addr)
		}
		return fmt.Errorf("interrupted: %d keys confirmed by %s", le.Confirmed, le.Addr)
	}
	if err != nil {
		return in.err(err)
	}

	sum := loadSummary{
		Addr:          opts.Addr,
		Method:        string(res.Method),
		Workers:       res.Workers,
		Batch:         res.Batch,
		Keys:          res.Keys,
		Expires:       res.Expires,
		Seconds:       res.Duration.Seconds(),
		KeysPerSecond: perSecond(res.Keys, res.Duration),
		Manifest:      c.String("manifest"),
	}
	if in.dataset != nil {
		sum.DB = in.dataset.DB
	}
	for addr, n := range res.Nodes {
		if sum.Nodes == nil {
			sum.Nodes = map[string]manifest.Counts{}
		}
		sum.Nodes[addr] = manifest.Counts{Keys: n.Keys, Expires: n.Expires}
	}
	if sum.Manifest != "" {
		if err := manifest.Write(sum.Manifest, in.manifest(c, now)); err != nil {
			return fmt.Errorf("loaded %d keys but wrote no manifest: %w", res.Keys, err)
		}
	}
	switch {
	case asJSON:
		return printJSON(c.App.Writer, sum)
	case quiet:
		return nil
	}
	where := fmt.Sprintf("%s db %d", sum.Addr, sum.DB)
	if in.dataset == nil {
		where = sum.Addr
	}
	if opts.Cluster {
		where = fmt.Sprintf("the cluster of %s (%d primaries)", sum.Addr, len(res.Nodes))
	}
	_, err = fmt.Fprintf(c.App.Writer, "loaded %d keys (%d with TTL) into %s by %s (%s): %.2fs, %.0f keys/s\n",
		sum.Keys, sum.Expires, where, sum.Method, workersAndBatch(res.Method, res.Workers, res.Batch), sum.Seconds, sum.KeysPerSecond)
	return err
}

// connectionFromFlags returns the loader options of --addr, --url and --password, and
// takes the URL's database into d, the built-in dataset, unless --db says another; other
// inputs name their databases themselves, and a URL may not name one.
func connectionFromFlags(c *cli.Context, d *dataset.Spec) (loader.Options, error) {
	opts := loader.Options{Addr: c.String("addr"), Password: c.String("password")}
	if !c.IsSet("url") {
		return opts, nil
	}
	if c.IsSet("addr") {
		return opts, errors.New("--addr and --url both name the server: give one")
	}
	u, err := redis.ParseURL(c.String("url"))
	if err != nil {
		return opts, fmt.Errorf("--url: %w", err)
	}
	if u.Network == "unix" {
		return opts, fmt.Errorf("--url %s: unix sockets are not supported", u.Addr)
	}
	opts.Addr, opts.Username, opts.TLSConfig = u.Addr, u.Username, u.TLSConfig
	if u.Password != "" {
		opts.Password = u.Password
	}
	if u.DialTimeout > 0 {
		opts.DialTimeout = u.DialTimeout
	}
	switch {
	case d == nil:
		if urlNamesDB(c.String("url")) && u.DB != 0 {
			return opts, fmt.Errorf("--url names database %d, but the input names its own databases", u.DB)
		}
		return opts, nil
	case !c.IsSet("db"):
		d.DB = u.DB
	case u.DB != d.DB && urlNamesDB(c.String("url")):
		return opts, fmt.Errorf("--db %d disagrees with the database %d of --url", d.DB, u.DB)
	}
	return opts, d.Validate()
}

// urlNamesDB tells whether a Redis URL has a database number in its path.
func urlNamesDB(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && strings.Trim(u.Path, "/") != ""
}

// workersAndBatch describes a method's connections and batch, as in
// "50 workers" or "1 worker, batch 1000".
func workersAndBatch(m loader.Method, workers, batch int) string {
	s := fmt.Sprintf("%d worker", workers)
	if workers != 1 {
		s += "s"
	}
	if m == loader.Pipeline {
		s += fmt.Sprintf(", batch %d", batch)
	}
	return s
}
