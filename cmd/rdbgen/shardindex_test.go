package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// podBaseTime is the --base-time every pod of the tests' splits shares.
const podBaseTime = "2026-11-29T10:00:00Z"

// TestShardIndexErrors: a shard index goes with a split and a base time shared by every
// process, in range, and named once or the same everywhere; each refusal names what was
// wrong and the way out, and writes nothing.
func TestShardIndexErrors(t *testing.T) {
	split := []string{"--count", "100", "--cluster-shards", "3", "--base-time", podBaseTime}
	inputs := t.TempDir()
	jsonl, dump := filepath.Join(inputs, "in.jsonl"), filepath.Join(inputs, "in.rdb")
	if err := os.WriteFile(jsonl, []byte(`{"key":"a","type":"string","value":"1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, context.Background(), "--count", "10", "-o", dump, "-q"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no base time", []string{"--count", "100", "--cluster-shards", "3", "--shard-index", "1"}, nil,
			"shard 1 of a split written by separate processes needs --base-time (or $RDBGEN_BASE_TIME), the same in every process: they must agree on the time TTLs, stream ids and the files' creation time count from"},
		{"no base time, index from the job", []string{"--count", "100", "--cluster-shards", "3"}, map[string]string{"JOB_COMPLETION_INDEX": "2"},
			"shard 2 of a split written by separate processes needs --base-time"},
		{"base time from now", append(slices.Clone(split), "--shard-index", "1", "--base-time", "-48h"), nil,
			"--base-time -48h counts from now, which differs from one process to the next"},
		{"index = N", append(slices.Clone(split), "--shard-index", "3"), nil, "shard index 3 out of range: the split has 3 shards (0 to 2)"},
		{"index > N from the job", split, map[string]string{"JOB_COMPLETION_INDEX": "7"}, "shard index 7 out of range: the split has 3 shards (0 to 2)"},
		{"index > N of --slots-from", []string{"--count", "100", "--slots-from", filepath.Join("..", "..", "testdata", "layouts", "uneven.shards.json"), "--base-time", podBaseTime},
			map[string]string{"RDBGEN_SHARD_INDEX": "3"}, "shard index 3 out of range: the split has 3 shards (0 to 2)"},
		{"negative index", append(slices.Clone(split), "--shard-index", "-1"), nil, "--shard-index -1: a shard index is 0 or more"},
		{"flag and job disagree", append(slices.Clone(split), "--shard-index", "1"), map[string]string{"JOB_COMPLETION_INDEX": "2"},
			"--shard-index 1 and JOB_COMPLETION_INDEX=2 disagree: give one shard index, or the same in both"},
		{"flag and env disagree", append(slices.Clone(split), "--shard-index", "1"), map[string]string{"RDBGEN_SHARD_INDEX": "0"},
			"--shard-index 1 and RDBGEN_SHARD_INDEX=0 disagree"},
		{"job and env disagree", split, map[string]string{"JOB_COMPLETION_INDEX": "1", "RDBGEN_SHARD_INDEX": "2"},
			"JOB_COMPLETION_INDEX=1 and RDBGEN_SHARD_INDEX=2 disagree"},
		{"env not a number", split, map[string]string{"RDBGEN_SHARD_INDEX": "one"}, `RDBGEN_SHARD_INDEX="one" is not a shard index`},
		{"no split", []string{"--count", "100", "--shard-index", "1", "--base-time", podBaseTime}, nil,
			"--shard-index 1 is one shard of a split: give the split too, --cluster-shards N or --slots-from FILE"},
		{"no split, env", []string{"--count", "100"}, map[string]string{"RDBGEN_SHARD_INDEX": "1"}, "RDBGEN_SHARD_INDEX=1 is one shard of a split"},
		{"import, no base time", []string{"import", jsonl, "--cluster-shards", "2", "--shard-index", "0"}, nil,
			"shard 0 of a split written by separate processes needs --base-time"},
		{"convert, index = N", []string{"convert", dump, "--cluster-shards", "2", "--shard-index", "2", "--base-time", podBaseTime}, nil,
			"shard index 2 out of range: the split has 2 shards (0 to 1)"},
		{"load, no base time", []string{"load", "--cluster", "--count", "10", "--addr", "127.0.0.1:1", "--shard-count", "3"}, map[string]string{"JOB_COMPLETION_INDEX": "0"},
			"shard 0 of a split written by separate processes needs --base-time"},
		{"load, not a cluster", []string{"load", "--count", "10", "--addr", "127.0.0.1:1", "--shard-index", "1", "--base-time", podBaseTime}, nil,
			"--shard-index 1 is one shard of a split: give the split too, --cluster"},
		{"load, flag and env disagree", []string{"load", "--cluster", "--count", "10", "--addr", "127.0.0.1:1", "--shard-index", "1"}, map[string]string{"RDBGEN_SHARD_INDEX": "0"},
			"--shard-index 1 and RDBGEN_SHARD_INDEX=0 disagree"},
		{"load, count without index", []string{"load", "--cluster", "--count", "10", "--addr", "127.0.0.1:1", "--shard-count", "3"}, nil,
			"--shard-count goes with a shard index"},
		{"load, index >= count", []string{"load", "--cluster", "--count", "10", "--addr", "127.0.0.1:1", "--shard-index", "3", "--shard-count", "3", "--base-time", podBaseTime}, nil,
			"shard index 3 out of range: --shard-count 3 (0 to 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, env := range []string{cluster.EnvJobIndex, cluster.EnvShardIndex, cluster.EnvShardCount, envBaseTime} {
				t.Setenv(env, tt.env[env]) // restored after the test
				if _, ok := tt.env[env]; !ok {
					os.Unsetenv(env)
				}
			}
			dir := t.TempDir()
			args := tt.args
			if args[0] != "load" {
				args = append(slices.Clone(args), "-o", filepath.Join(dir, "out"))
			}
			_, _, err := run(t, context.Background(), args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if got := dirEntries(t, dir); len(got) != 0 {
				t.Fatalf("wrote %v", got)
			}
		})
	}
}

// TestShardIndexJobWithoutSplit: JOB_COMPLETION_INDEX, which every pod of an Indexed Job
// has, does not touch a run that writes one whole file.
func TestShardIndexJobWithoutSplit(t *testing.T) {
	t.Setenv(cluster.EnvJobIndex, "3")
	dir := t.TempDir()
	if _, _, err := run(t, context.Background(), "--count", "100", "-o", filepath.Join(dir, "dump.rdb"), "-q"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(dirEntries(t, dir), " "); got != "dump.rdb dump.rdb.manifest.json" {
		t.Fatalf("wrote %s", got)
	}
}

// podEnv returns the environment of pod i of an Indexed Job.
func podEnv(i int) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, cluster.EnvJobIndex+"=") && !strings.HasPrefix(kv, cluster.EnvShardIndex+"=") && !strings.HasPrefix(kv, envBaseTime+"=") {
			env = append(env, kv)
		}
	}
	return append(env, fmt.Sprintf("%s=%d", cluster.EnvJobIndex, i), envBaseTime+"="+podBaseTime)
}

// runPods runs bin with args once per shard, as the n pods of an Indexed Job do: each with
// its JOB_COMPLETION_INDEX, and the base time from RDBGEN_BASE_TIME, into dir.
func runPods(t *testing.T, bin string, n int, dir string, args ...string) {
	t.Helper()
	for i := range n {
		cmd := exec.Command(bin, append(args, "-o", dir, "-q")...)
		cmd.Env = podEnv(i)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pod %d: %v: %s", i, err, out)
		}
	}
}

// sameFiles fails unless dirs a and b hold the same files, byte for byte.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	want, got := dirEntries(t, a), dirEntries(t, b)
	if !slices.Equal(want, got) {
		t.Fatalf("%s holds %v, %s %v", a, want, b, got)
	}
	for _, name := range want {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Fatalf("%s: %d bytes from the split, %d from its pod", name, len(x), len(y))
		}
	}
}

// TestShardIndexPods runs the rdbgen binary once per shard with JOB_COMPLETION_INDEX=0…N-1,
// as the pods of an Indexed Job: the files and manifests they write are those of the split
// of one process, byte for byte, for the built-in dataset, a spec file and a dump a real
// server wrote; and verify --cluster passes on the union, in a cluster of local
// redis-servers.
func TestShardIndexPods(t *testing.T) {
	bin := buildRdbgen(t)
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples"))
	layouts, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "layouts"))
	dump := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		for _, cmd := range append(fillCommands(), streamCommands()...) {
			if err := c.Do(ctx, cmd...).Err(); err != nil {
				return err
			}
		}
		return nil
	})
	cases := []struct {
		name   string
		shards int
		args   []string
		verify bool
	}{
		{"default dataset", 4, []string{"--count", "200000", "--cluster-shards", "4", "--ttl", "2400h", "--ttl-jitter", "1h"}, true},
		{"slots-from", 3, []string{"--count", "30000", "--slots-from", filepath.Join(layouts, "uneven.shards.json"), "--value", "random"}, false},
		{"spec", 3, []string{"--spec", filepath.Join(examples, "spring-data-redis.yaml"), "--count-scale", "0.05", "--cluster-shards", "3", "--target", "redis-7.0"}, true},
		{"convert of a server's dump", 3, []string{"convert", dump, "--db", "0", "--cluster-shards", "3", "--target", "redis-7.0"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			split, pods := filepath.Join(dir, "split"), filepath.Join(dir, "pods")
			if out, err := exec.Command(bin, append(tc.args, "-o", split, "-q", "--base-time", podBaseTime)...).CombinedOutput(); err != nil {
				t.Fatalf("split: %v: %s", err, out)
			}
			runPods(t, bin, tc.shards, pods, tc.args...)
			sameFiles(t, split, pods)
			if !tc.verify {
				return
			}
			stdout, _, err := run(t, context.Background(), append([]string{"verify", "--cluster", pods, "--sample", "200"}, process(t)...)...)
			if err != nil || !strings.Contains(stdout, "\nPASS\n") {
				t.Fatalf("verify --cluster: %v\n%s", err, stdout)
			}
		})
	}
}

// TestShardIndexKilledPod: a pod killed mid-write (SIGKILL) leaves its temporary file; run
// again, as the Job's retry runs it, it removes that file, leaves the other pods' files
// and temporary files alone (--force or not), and writes its shard's complete file, the
// split's byte for byte.
func TestShardIndexKilledPod(t *testing.T) {
	bin := buildRdbgen(t)
	args := []string{"--count", "10000000", "--cluster-shards", "3"}
	root := t.TempDir()
	split, dir := filepath.Join(root, "split"), filepath.Join(root, "pods")
	if out, err := exec.Command(bin, append(args, "-o", split, "-q", "--base-time", podBaseTime)...).CombinedOutput(); err != nil {
		t.Fatalf("split: %v: %s", err, out)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Another pod's temporary file, of a process this machine does not know: left alone.
	other := ".shard-2.rdb.tmp-rdbgen-999999999-1"
	if err := os.WriteFile(filepath.Join(dir, other), []byte("pod 2 writing"), 0o644); err != nil {
		t.Fatal(err)
	}
	runPods(t, bin, 1, dir, args...) // pod 0, done

	kill := exec.Command(bin, append(args, "-o", dir)...)
	kill.Env = podEnv(1)
	if err := kill.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kill.Process.Kill(); kill.Wait() })
	own := func() []string {
		var names []string
		for _, name := range dirEntries(t, dir) {
			if strings.HasPrefix(name, ".shard-1.rdb.tmp-rdbgen-") {
				names = append(names, name)
			}
		}
		return names
	}
	for len(own()) == 0 && kill.ProcessState == nil {
		syscall.Nanosleep(&syscall.Timespec{Nsec: 5e6}, nil)
	}
	kill.Process.Signal(syscall.SIGKILL)
	kill.Wait()
	left := own()
	if len(left) != 1 || slices.Contains(dirEntries(t, dir), "shard-1.rdb") {
		t.Fatalf("the killed pod left %v (want its temporary file alone)", dirEntries(t, dir))
	}

	again := exec.Command(bin, append(args, "-o", dir, "--force")...)
	again.Env = podEnv(1)
	out, err := again.CombinedOutput()
	if err != nil {
		t.Fatalf("pod 1 again: %v: %s", err, out)
	}
	if want := "removed " + filepath.Join(dir, left[0]) + ", the temporary file of an rdbgen run that was killed\n"; !strings.HasPrefix(string(out), want) {
		t.Fatalf("pod 1 again said %q, want it to start %q", out, want)
	}
	want := []string{other, "shard-0.rdb", "shard-0.rdb.manifest.json", "shard-1.rdb", "shard-1.rdb.manifest.json"}
	if got := dirEntries(t, dir); !slices.Equal(got, want) {
		t.Fatalf("the directory holds %v, want %v", got, want)
	}
	for _, name := range want[1:] {
		x, _ := os.ReadFile(filepath.Join(split, name))
		y, _ := os.ReadFile(filepath.Join(dir, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Fatalf("%s: %d bytes from the split, %d from its pod", name, len(x), len(y))
		}
	}
}

// TestLoadClusterShardIndex runs load --cluster once per shard with JOB_COMPLETION_INDEX,
// as the pods of an Indexed Job that each load their shard: each primary gets the keys of
// its slots, and every key's expiry counts from the shared --base-time.
func TestLoadClusterShardIndex(t *testing.T) {
	c, layout := servertest.StartCluster(t)
	base, _ := time.Parse(time.RFC3339, podBaseTime)
	t.Setenv(cluster.EnvShardCount, "3")
	for i := range layout.Len() {
		t.Setenv(cluster.EnvJobIndex, strconv.Itoa(i))
		stdout, _, err := run(t, context.Background(), "load", "--cluster", "--addr", c.Nodes[0].Addr, "--count", "3000", "--ttl", "8760h", "--base-time", podBaseTime)
		if err != nil || !strings.Contains(stdout, "(1 primaries)") {
			t.Fatalf("pod %d: %v: %s", i, err, stdout)
		}
	}
	// A job of two pods for three primaries: each pod refuses, naming both numbers; so does
	// a pod that is not told the job's size.
	for i := range 2 {
		t.Setenv(cluster.EnvJobIndex, strconv.Itoa(i))
		_, _, err := run(t, context.Background(), "load", "--cluster", "--addr", c.Nodes[0].Addr, "--count", "3000", "--base-time", podBaseTime, "--shard-count", "2")
		if want := "has 3 primaries, and each needs a shard of its own: run the job with 3 shards"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("pod %d of 2: %v, want %q", i, err, want)
		}
	}
	os.Unsetenv(cluster.EnvShardCount)
	_, _, err := run(t, context.Background(), "load", "--cluster", "--addr", c.Nodes[0].Addr, "--count", "3000", "--base-time", podBaseTime)
	if want := "shard 1 of how many? give --shard-count N (or $RDBGEN_SHARD_COUNT)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("no count: %v, want %q", err, want)
	}
	var total uint64
	for _, n := range servertest.NodeKeys(t, c, layout) {
		total += n
	}
	for _, n := range c.Nodes {
		key, err := n.Client().RandomKey(t.Context()).Result()
		if err != nil {
			t.Fatal(err)
		}
		at, err := n.Client().PExpireTime(t.Context(), key).Result()
		if want := base.Add(8760 * time.Hour); err != nil || at != time.Duration(want.UnixMilli())*time.Millisecond {
			t.Fatalf("%s expires at %v (%v), want %v", key, at, err, want.UnixMilli())
		}
	}
	if total != 3000 {
		t.Fatalf("the primaries hold %d keys, want 3000", total)
	}
}
