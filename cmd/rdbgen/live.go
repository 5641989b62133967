package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/live"
)

// liveFlagNames are the flags of a live server's input.
var liveFlagNames = []string{"via", "tls-ca", "tls-cert", "tls-key", "insecure", "password-file"}

// liveFlags are the flags of the commands that read a dump, for an input that is a live
// server: redis://[user:password@]host[:port][/db] or rediss://….
func liveFlags() []cli.Flag {
	const cat = "Live server (input redis://[user:password@]host[:port][/db], rediss://… for TLS)"
	return []cli.Flag{
		&cli.StringFlag{Name: "via", Value: string(live.Sync), Category: cat,
			Usage: "sync: as a replica, a point-in-time snapshot (falls back to scan, saying so, when the server refuses SYNC and PSYNC); scan: SCAN and DUMP, key by key, not a point-in-time snapshot"},
		&cli.StringFlag{Name: "tls-ca", Category: cat, Usage: "PEM file of the authorities that sign the server's certificate (default: the system's)"},
		&cli.StringFlag{Name: "tls-cert", Category: cat, Usage: "PEM file of a client certificate, for a server that asks for one"},
		&cli.StringFlag{Name: "tls-key", Category: cat, Usage: "PEM file of the client certificate's key"},
		&cli.BoolFlag{Name: "insecure", Category: cat, Usage: "do not check the server's certificate"},
		passwordFileFlag(cat),
		&cli.BoolFlag{Name: "allow-moving-slots", Category: cat, Usage: "with --cluster: read on when slots migrate or move between primaries during the reading (a resharding), counting them, instead of stopping: their keys may be missing or read twice"},
		&cli.BoolFlag{Name: "cluster", Category: cat, Usage: "the server is a Redis Cluster node: read every primary (CLUSTER NODES), 4 at a time; " +
			"with -o DIR/ (a directory) one shard file per primary, as --cluster-shards writes them, else one file of every primary's keys"},
	}
}

// liveCluster tells whether the input arg is to be read as a Redis Cluster: --cluster among
// the live server's flags (load's --cluster names its target, not its input).
func liveCluster(c *cli.Context, arg string) (bool, error) {
	isLive := commandHasFlag(c, "via")
	if !isLive || !c.Bool("cluster") {
		if isLive && c.IsSet("allow-moving-slots") {
			return false, errors.New("--allow-moving-slots goes with --cluster: slots move between a cluster's primaries")
		}
		return false, nil
	}
	if !live.IsURL(arg) {
		return false, fmt.Errorf("--cluster applies to a live server's input (redis://…, rediss://…), not to %s", arg)
	}
	return true, nil
}

// liveSplit makes a job whose input is a live cluster write one shard file per primary, split
// by the cluster's own slots, when -o names a directory (one that exists, or a name ending in
// /) and neither --cluster-shards nor --slots-from splits otherwise. Every shard file gets
// every library: a split then needs the primaries to hold the same ones.
func liveSplit(c *cli.Context, j *fileJob, in *input.Input) error {
	if in.Cluster == nil {
		return nil
	}
	if j.opts.Layout == nil && liveClusterSplit(c) {
		if err := splitOutput(c, "--cluster"); err != nil {
			return err
		}
		layout := in.Cluster.Layout()
		shard, err := shardOfSplit(c, layout, true)
		if err != nil {
			return err
		}
		j.opts.Layout, j.opts.Shard = layout, shard
		j.opts.Manifest, j.opts.NoManifest = "", false
	}
	in.Cluster.SameFunctions = j.opts.Layout != nil
	in.Cluster.AllowMovingSlots = c.Bool("allow-moving-slots")
	return nil
}

// liveClusterSplit tells whether the command reads a live cluster (--cluster) into a
// directory (-o names one that exists, or a name ending in /) without a split of its own
// (--cluster-shards, --slots-from): a split by the cluster's own slots, one shard file per
// primary.
func liveClusterSplit(c *cli.Context) bool {
	if isCluster(c) || !live.IsURL(c.Args().First()) {
		return false
	}
	if ok, err := liveCluster(c, c.Args().First()); !ok || err != nil {
		return false
	}
	out := c.String("output")
	fi, err := os.Stat(out)
	return strings.HasSuffix(out, "/") || err == nil && fi.IsDir()
}

// liveOptions returns the options of a live input from the flags; for an input that is no
// live server, an error if any of them is given.
func liveOptions(c *cli.Context, input string) (live.Options, error) {
	if !live.IsURL(input) {
		for _, name := range liveFlagNames {
			if c.IsSet(name) {
				return live.Options{}, fmt.Errorf("--%s applies to a live server's input (redis://…, rediss://…), not to %s", name, input)
			}
		}
		return live.Options{}, nil
	}
	var errw io.Writer = c.App.ErrWriter
	if c.Bool("quiet") {
		errw = io.Discard
	}
	pw, from, err := password(c)
	if err != nil {
		return live.Options{}, err
	}
	if a, err := live.ParseURL(input); err == nil && a.Password != "" && pw != "" {
		return live.Options{}, fmt.Errorf("%s: a password in the URL and in %s: give one (keep it out of the URL, which ps shows; a name alone before @ is a password, as for redis-cli: a user is redis://USER:@host)", a, from)
	}
	return live.Options{
		Via:           live.Via(c.String("via")),
		TLS:           live.TLS{CA: c.String("tls-ca"), Cert: c.String("tls-cert"), Key: c.String("tls-key"), Insecure: c.Bool("insecure")},
		Notice:        func(msg string) { fmt.Fprintf(errw, "rdbgen: %s\n", msg) },
		Password:      pw,
		Match:         c.String("match"), // "" where the command has no --match
		DropFunctions: c.Bool("drop-functions"),
	}, nil
}

// refuseLive returns, for a command that reads dump files alone, an error for the first of
// args that is a live server's URL, "write it to a file first", naming it without its
// password; nil when none is.
func refuseLive(command string, args []string) error {
	for _, arg := range args {
		if !live.IsURL(arg) {
			continue
		}
		name := "the server"
		if a, err := live.ParseURL(arg); err == nil {
			name = a.String()
		}
		return fmt.Errorf("%s reads no live server (%s) yet: write it to a file first (rdbgen convert %s -o dump.rdb; of a Redis Cluster node, add --cluster to read every primary)", command, name, name)
	}
	return nil
}

// livePermHint adds to err, a scan's DUMP the server refused as the user may not read the
// key (live.ErrKeyRefused), the way out that the command takes: convert's --match, or for
// a command without it, the user's right to run ACL GETUSER.
func livePermHint(c *cli.Context, err error) error {
	if !errors.Is(err, live.ErrKeyRefused) {
		return err
	}
	if commandHasFlag(c, "match") {
		return fmt.Errorf("%w (--match PATTERN scans only the keys the user may read)", err)
	}
	return fmt.Errorf("%w (let the user run ACL GETUSER, +acl|getuser, and the scan reads only the keys its patterns allow; or write those keys to a file with convert first)", err)
}

// commandHasFlag tells whether the running command takes the flag name.
func commandHasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}
