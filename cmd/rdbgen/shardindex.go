package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/cluster"
)

// The environment variables that give a process its shard of a split that many processes
// write side by side: Kubernetes sets JOB_COMPLETION_INDEX in each pod of an Indexed Job;
// RDBGEN_SHARD_INDEX is rdbgen's own. Each is read as --shard-index is.
const (
	envJobIndex   = "JOB_COMPLETION_INDEX"
	envShardIndex = "RDBGEN_SHARD_INDEX"
	envBaseTime   = "RDBGEN_BASE_TIME"
)

// shardIndexFlag is --shard-index: write (or load) one shard of the split alone.
func shardIndexFlag() cli.Flag {
	return &cli.IntFlag{Name: "shard-index", Category: "Cluster", Usage: "one shard of the split alone, as one pod of a Kubernetes Indexed Job: " +
		"shard I's file and manifest, byte for byte the whole split's (with load --cluster: the keys of its slots, into its primary); " +
		"every pod reads the whole input and keeps its slots; needs --base-time. Also read from $" + envJobIndex + " (with a split) and $" + envShardIndex}
}

// A shardSource is where a shard index came from: the flag or an environment variable.
type shardSource struct {
	name  string // "--shard-index 3" or "JOB_COMPLETION_INDEX=3"
	index int
}

// shardIndex returns the shard that --shard-index, $JOB_COMPLETION_INDEX or
// $RDBGEN_SHARD_INDEX name, or -1 for none: the whole split, or one file. split tells
// whether the flags ask for a split, which the flags splitFlags name; without one, $JOB_COMPLETION_INDEX (set in every pod of
// an Indexed Job, which may write a whole file) is not read, and the others are an error.
// Sources that disagree are an error naming both.
func shardIndex(c *cli.Context, split bool, splitFlags string) (int, error) {
	var from []shardSource
	if c.IsSet("shard-index") {
		from = append(from, shardSource{fmt.Sprintf("--shard-index %d", c.Int("shard-index")), c.Int("shard-index")})
	}
	for _, env := range []string{envJobIndex, envShardIndex} {
		v, ok := os.LookupEnv(env)
		if !ok || v == "" || (env == envJobIndex && !split) {
			continue
		}
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return -1, fmt.Errorf("%s=%q is not a shard index: want a number from 0", env, v)
		}
		from = append(from, shardSource{fmt.Sprintf("%s=%d", env, i), i})
	}
	if len(from) == 0 {
		return -1, nil
	}
	for _, s := range from[1:] {
		if s.index != from[0].index {
			return -1, fmt.Errorf("%s and %s disagree: give one shard index, or the same in both", from[0].name, s.name)
		}
	}
	if !split {
		return -1, fmt.Errorf("%s is one shard of a split: give the split too, %s", from[0].name, splitFlags)
	}
	if from[0].index < 0 {
		return -1, fmt.Errorf("%s: a shard index is 0 or more", from[0].name)
	}
	return from[0].index, nil
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
