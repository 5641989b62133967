package main

import (
	"errors"
	"fmt"
	"os"

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

// shardCountFlag is --shard-count: the number of shards of the job one shard is a part of,
// which the split's shards (a live cluster's or load --cluster's primaries) must match.
func shardCountFlag() cli.Flag {
	return &cli.IntFlag{Name: "shard-count", Category: "Cluster", EnvVars: []string{cluster.EnvShardCount},
		Usage: "with a shard index: the job's number of shards (an Indexed Job's completions), needed where the cluster decides the split (load --cluster, a live --cluster input); " +
			"a split or cluster of another number of shards is refused, as the shards no pod is numbered for would get nothing"}
}

// shardOfSplit returns the shard index that the flags and environment give a split of
// layout (see shardIndex), or nil for the whole split. A shard index needs the time shared
// with the other processes: --base-time (or $RDBGEN_BASE_TIME) as an absolute time; and
// where the cluster decides the layout (live, a live cluster's split), the job's count of
// shards, which must be the layout's.
func shardOfSplit(c *cli.Context, layout *cluster.Layout, live bool) (*int, error) {
	i, err := shardIndex(c, layout != nil, "--cluster-shards N or --slots-from FILE")
	if err == nil {
		err = shardCount(c, i, live)
	}
	if err != nil || i < 0 {
		return nil, err
	}
	if err := layout.CheckShard(i); err != nil {
		return nil, err
	}
	if n := c.Int("shard-count"); c.IsSet("shard-count") && n != layout.Len() {
		return nil, fmt.Errorf("shard %d of %d (--shard-count): the split has %d shards, one per primary: run the job with %d shards (its completions and --shard-count)", i, n, layout.Len(), layout.Len())
	}
	return &i, cluster.SharedBaseTime(i, c.String("base-time"), c.IsSet("base-time"), envBaseTime)
}

// loadShard returns the one shard that load --cluster loads (see shardIndex), or -1 for
// all, and the job's count of shards; a shard needs the base time shared with the other
// processes, and the count, which the loader checks against the cluster's primaries.
func loadShard(c *cli.Context) (index, count int, err error) {
	i, err := shardIndex(c, c.Bool("cluster"), "--cluster")
	if err == nil {
		err = shardCount(c, i, true)
	}
	if err != nil || i < 0 {
		return -1, 0, err
	}
	return i, c.Int("shard-count"), cluster.SharedBaseTime(i, c.String("base-time"), c.IsSet("base-time"), envBaseTime)
}

// shardCount checks --shard-count against shard index i (-1: none): it goes with one, needs
// to be above it, and is needed (need) where the cluster decides the number of shards.
func shardCount(c *cli.Context, i int, need bool) error {
	n := c.Int("shard-count")
	switch {
	case i < 0 && c.IsSet("shard-count"):
		return errors.New("--shard-count goes with a shard index (--shard-index, or $" + cluster.EnvJobIndex + " in a split)")
	case i < 0:
		return nil
	case !c.IsSet("shard-count") && need:
		return fmt.Errorf("shard %d of how many? give --shard-count N (or $%s), the job's number of shards (its completions), which must be the cluster's number of primaries", i, cluster.EnvShardCount)
	case c.IsSet("shard-count") && i >= n:
		return fmt.Errorf("shard index %d out of range: --shard-count %d (0 to %d)", i, n, n-1)
	}
	return nil
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
