package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/cluster"
)

// envBaseTime gives --base-time, which every process of a split needs the same.
const envBaseTime = "RDBGEN_BASE_TIME"

// shardIndexFlag is --shard-index: write (or load) one shard of the split alone.
func shardIndexFlag() cli.Flag {
	return &cli.IntFlag{Name: "shard-index", Category: "Cluster", Usage: "one shard of the split alone, as one pod of a Kubernetes Indexed Job: " +
		"shard I's file and manifest, byte for byte the whole split's (with load --cluster: the keys of its slots, into its primary); " +
		"every pod reads the whole input and keeps its slots; needs --base-time. Also read from $" + cluster.EnvJobIndex + " (with a split) and $" + cluster.EnvShardIndex}
}

// shardOfSplit returns the shard index that the flags and environment give a split of
// layout (see shardIndex), or -1 for the whole split. A shard index needs the time shared
// with the other processes: --base-time (or $RDBGEN_BASE_TIME) as an absolute time.
func shardOfSplit(c *cli.Context, layout *cluster.Layout) (int, error) {
	i, err := shardIndex(c, layout != nil, "--cluster-shards N or --slots-from FILE")
	if err != nil || i < 0 {
		return i, err
	}
	if n := layout.Len(); i >= n {
		return -1, fmt.Errorf("shard index %d out of range: the split has %d shards (0 to %d)", i, n, n-1)
	}
	return i, sharedBaseTime(c, i)
}

// sharedBaseTime checks that --base-time names the same instant in every process of a split:
// shard i's file must be what the whole split writes.
func sharedBaseTime(c *cli.Context, i int) error {
	if !c.IsSet("base-time") {
		return fmt.Errorf("shard %d of a split written by separate processes needs --base-time (or $%s), the same in every process: "+
			"they must agree on the time TTLs, stream ids and the files' creation time count from, and now differs from one to the next "+
			"(e.g. --base-time %s)", i, envBaseTime, time.Now().UTC().Format(time.RFC3339))
	}
	// A duration counts from now, as baseTime reads it.
	if v := strings.TrimSpace(c.String("base-time")); isDuration(v) {
		return fmt.Errorf("--base-time %s counts from now, which differs from one process to the next: "+
			"shard %d of a split written by separate processes needs an RFC 3339 time or Unix seconds", v, i)
	}
	return nil
}

// isDuration tells whether s reads as a duration.
func isDuration(s string) bool {
	_, err := time.ParseDuration(s)
	return err == nil
}

// loadShard returns the one shard that load --cluster loads (see shardIndex), or -1 for
// all; a shard needs the base time shared with the other processes, and its range is
// checked against the cluster's primaries by the loader.
func loadShard(c *cli.Context) (int, error) {
	i, err := shardIndex(c, c.Bool("cluster"), "--cluster")
	if err == nil && i >= 0 {
		err = sharedBaseTime(c, i)
	}
	return i, err
}

// shardIndex reads --shard-index and the environment as cluster.ShardIndex does.
func shardIndex(c *cli.Context, split bool, splitFlags string) (int, error) {
	var flag *int
	if c.IsSet("shard-index") {
		i := c.Int("shard-index")
		flag = &i
	}
	return cluster.ShardIndex(flag, split, splitFlags, os.LookupEnv)
}
