package cluster

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The environment variables that give a process its shard of a split that many processes
// write side by side: Kubernetes sets JOB_COMPLETION_INDEX in each pod of an Indexed Job;
// RDBGEN_SHARD_INDEX is rdbgen's own. Each is read as --shard-index is.
const (
	EnvJobIndex   = "JOB_COMPLETION_INDEX"
	EnvShardIndex = "RDBGEN_SHARD_INDEX"
	// EnvShardCount gives the number of shards of the job (--shard-count): an Indexed Job
	// sets it to its completions, which no pod is told otherwise.
	EnvShardCount = "RDBGEN_SHARD_COUNT"
)

// A shardSource is where a shard index came from: the flag or an environment variable.
type shardSource struct {
	name  string // "--shard-index 3" or "JOB_COMPLETION_INDEX=3"
	index int
}

// ShardIndex returns the shard that --shard-index (flag, nil when not given),
// $JOB_COMPLETION_INDEX or $RDBGEN_SHARD_INDEX (as getenv finds them) name, or -1 for none:
// the whole split, or one file. split tells whether the flags ask for a split, which the
// flags splitFlags name; without one, $JOB_COMPLETION_INDEX (set in every pod of an Indexed
// Job, which may write a whole file) is not read, and the others are an error. Sources that
// disagree are an error naming both.
func ShardIndex(flag *int, split bool, splitFlags string, getenv func(string) (string, bool)) (int, error) {
	var from []shardSource
	if flag != nil {
		from = append(from, shardSource{fmt.Sprintf("--shard-index %d", *flag), *flag})
	}
	for _, env := range []string{EnvJobIndex, EnvShardIndex} {
		v, ok := getenv(env)
		if !ok || v == "" || (env == EnvJobIndex && !split) {
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

// SharedBaseTime checks the base time of shard i of a split that separate processes write,
// which must be the same instant in every process for shard i's file to be what the whole
// split writes: baseTime must be given (set: by --base-time or the environment variable env)
// as an absolute time, not a duration from now, which differs from one process to the next.
func SharedBaseTime(i int, baseTime string, set bool, env string) error {
	if !set {
		return fmt.Errorf("shard %d of a split written by separate processes needs --base-time (or $%s), the same in every process: "+
			"they must agree on the time TTLs, stream ids and the files' creation time count from, and now differs from one to the next "+
			"(e.g. --base-time %s)", i, env, time.Now().UTC().Format(time.RFC3339))
	}
	if v := strings.TrimSpace(baseTime); isDuration(v) {
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
