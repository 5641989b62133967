package main

import (
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

// shardOfSplit returns the shard index that the flags and environment give a split of
// layout (see shardIndex), or nil for the whole split. A shard index needs the time shared
// with the other processes: --base-time (or $RDBGEN_BASE_TIME) as an absolute time.
func shardOfSplit(c *cli.Context, layout *cluster.Layout) (*int, error) {
	i, err := shardIndex(c, layout != nil, "--cluster-shards N or --slots-from FILE")
	if err != nil || i < 0 {
		return nil, err
	}
	if err := layout.CheckShard(i); err != nil {
		return nil, err
	}
	return &i, cluster.SharedBaseTime(i, c.String("base-time"), c.IsSet("base-time"), envBaseTime)
}

// loadShard returns the one shard that load --cluster loads (see shardIndex), or -1 for
// all; a shard needs the base time shared with the other processes, and its range is
// checked against the cluster's primaries by the loader.
func loadShard(c *cli.Context) (int, error) {
	i, err := shardIndex(c, c.Bool("cluster"), "--cluster")
	if err == nil && i >= 0 {
		err = cluster.SharedBaseTime(i, c.String("base-time"), c.IsSet("base-time"), envBaseTime)
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
