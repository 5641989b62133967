package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
)

// TestConvertLiveClusterShardIndex reads a three-primary cluster into shard files one pod at
// a time, as an Indexed Job does (JOB_COMPLETION_INDEX, and --shard-index): each pod writes
// its primary's shard file alone, holding that primary's keys. A pod not told the job's
// count of shards, or told another than the cluster's primaries, refuses and writes nothing.
func TestConvertLiveClusterShardIndex(t *testing.T) {
	c, _ := servertest.StartCluster(t)
	ctx := t.Context()
	p := c.Client().Pipeline()
	for i := range 300 {
		p.Set(ctx, "k:"+strconv.Itoa(i), i, 0)
	}
	if _, err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	url := "redis://" + c.Nodes[2].Addr
	dir := filepath.Join(t.TempDir(), "pods") + "/"
	for _, env := range []string{cluster.EnvJobIndex, cluster.EnvShardIndex, cluster.EnvShardCount, envBaseTime} {
		t.Setenv(env, "")
		os.Unsetenv(env)
	}
	for i, n := range c.Nodes {
		args := []string{"convert", url, "--cluster", "-o", dir, "--base-time", podBaseTime, "--shard-count", "3", "-q"}
		if i == 1 {
			args = append(args, "--shard-index", "1")
		} else {
			t.Setenv(cluster.EnvJobIndex, strconv.Itoa(i))
		}
		if _, stderr, err := run(t, ctx, args...); err != nil {
			t.Fatalf("pod %d: %v: %s", i, err, stderr)
		}
		os.Unsetenv(cluster.EnvJobIndex)
		path := filepath.Join(dir, fmt.Sprintf("shard-%d.rdb", i))
		m, err := manifest.Read(manifest.PathFor(path))
		if err != nil {
			t.Fatal(err)
		}
		if keys := n.Client().DBSize(ctx).Val(); int64(m.Keys) != keys || m.Cluster == nil || m.Cluster.Addr != n.Addr || keys == 0 {
			t.Errorf("pod %d: manifest %+v of %d keys, the primary %s holds %d", i, m.Cluster, m.Keys, n.Addr, keys)
		}
		got := servertest.KeyCount(t, servertest.Start(t, path).Client())
		if want := uint64(n.Client().DBSize(ctx).Val()); got != want {
			t.Errorf("pod %d: shard file of %d keys, the primary holds %d", i, got, want)
		}
		if files := len(dirEntries(t, dir)); files != 2*(i+1) {
			t.Errorf("after pod %d: %d files in %s, want %d (a file and a manifest per pod)", i, files, dir, 2*(i+1))
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard-index", "1"}, "shard 1 of how many? give --shard-count N"},
		{[]string{"--shard-index", "1", "--shard-count", "2"}, "shard 1 of 2 (--shard-count): the split has 3 shards, one per primary"},
		{[]string{"--shard-index", "3", "--shard-count", "4"}, "shard index 3 out of range: the split has 3 shards"},
	} {
		out := filepath.Join(t.TempDir(), "x") + "/"
		_, _, err := run(t, ctx, append([]string{"convert", url, "--cluster", "-o", out, "--base-time", podBaseTime}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.args, err, tt.want)
		}
		if _, err := os.Stat(out); err == nil && len(dirEntries(t, out)) > 0 {
			t.Errorf("%q: wrote %v", tt.args, dirEntries(t, out))
		}
	}
}
