package localcluster_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/server"
)

// writeShards splits d by layout into files in a new directory.
func writeShards(t *testing.T, d *dataset.Config, layout *cluster.Layout) []string {
	t.Helper()
	dir := t.TempDir()
	paths := make([]string, layout.Len())
	dsts := make([]io.Writer, layout.Len())
	for i := range paths {
		paths[i] = filepath.Join(dir, cluster.ShardFile(i))
		f, err := os.Create(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		dsts[i] = f
	}
	if _, err := output.WriteShards(context.Background(), dsts, d, layout, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}}); err != nil {
		t.Fatal(err)
	}
	return paths
}

func TestStart(t *testing.T) {
	d := &dataset.Config{Count: 3000, KeyPrefix: "key", KeyStart: 1}
	even, _ := cluster.Even(3)
	// Shard 1 owns a slot that holds none of the dataset's keys: it is assigned, not claimed.
	used := map[int]bool{}
	for i := range d.Count {
		used[cluster.Slot(d.AppendKey(nil, i))] = true
	}
	empty := 1000
	for used[empty] {
		empty++
	}
	uneven, err := cluster.NewLayout([]cluster.Shard{
		{Ranges: []cluster.Range{{First: 0, Last: 999}, {First: 10000, Last: 16383}}},
		{Ranges: []cluster.Range{{First: 1000, Last: empty}}},
		{Ranges: []cluster.Range{{First: empty + 1, Last: 9999}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		layout *cluster.Layout
		opts   server.Options
	}{
		"process uneven": {uneven, server.Options{Backend: server.BackendProcess, RedisServer: redistest.RedisServer(t)}},
		"docker even":    {even, server.Options{Backend: server.BackendDocker, Image: redistest.Image(t)}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := writeShards(t, d, tc.layout)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c, err := localcluster.Start(ctx, files, tc.layout, localcluster.Options{Server: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := c.Close(context.Background()); err != nil {
					t.Error(err)
				}
			}()
			t.Logf("load %v, join %v", c.LoadDuration, c.JoinDuration)
			if c.LoadDuration <= 0 || c.JoinDuration <= 0 || c.Backend != tc.opts.Backend {
				t.Fatalf("cluster %+v", c)
			}
			var total int64
			for i, n := range c.Nodes {
				if len(n.ID) != 40 || n.File != files[i] {
					t.Fatalf("node %d: %+v", i, n)
				}
				for _, r := range n.Claimed {
					for s := r.First; s <= r.Last; s++ {
						if !tc.layout.Shard(i).Owns(s) {
							t.Fatalf("node %d claimed slot %d, planned for shard %d", i, s, tc.layout.Owner(s))
						}
					}
				}
				keys, err := n.Client().DBSize(ctx).Result()
				if err != nil {
					t.Fatal(err)
				}
				total += keys
			}
			if total != int64(d.Count) {
				t.Fatalf("nodes hold %d keys, want %d", total, d.Count)
			}
			if claimed := c.Nodes[1].Claimed; name == "process uneven" && len(claimed) > 0 && claimed[len(claimed)-1].Last == empty {
				t.Fatalf("node 1 claimed %v, slot %d without keys", claimed, empty)
			}
			// The cluster client reads every key from the node that owns its slot.
			cc := c.Client()
			for i := range d.Count {
				key := string(d.AppendKey(nil, i))
				if v, err := cc.Get(ctx, key).Result(); err != nil || v != key {
					t.Fatalf("GET %s = %q, %v", key, v, err)
				}
			}
			// Each node owns its planned slots.
			slots, err := cc.ClusterSlots(ctx).Result()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range slots {
				owner := tc.layout.Owner(int(s.Start))
				if s.Nodes[0].ID != c.Nodes[owner].ID || tc.layout.Owner(int(s.End)) != owner {
					t.Fatalf("slots %d-%d served by %s, planned for node %d", s.Start, s.End, s.Nodes[0].ID, owner)
				}
			}
		})
	}
}
