package loader_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
)

// TestLoadOneShard loads a dataset into a cluster of three primaries one shard at a time,
// as the pods of an Indexed Job do (Options.Shard): each load sends its shard's keys alone,
// to its primary alone, which then holds every key of its slots and nothing else while the
// shards after it are still empty; a shard out of range names the number of primaries.
func TestLoadOneShard(t *testing.T) {
	c, layout := servertest.StartCluster(t)
	sets := []*dataset.Config{
		{Count: 3000, KeyPrefix: "key", KeyStart: 1, TTL: time.Hour, BaseTimeMS: time.Now().UnixMilli()},
		{Count: 500, Type: record.Hash, Members: dataset.Range{Min: 1, Max: 30}, KeyPrefix: "h:", Seed: 7},
	}
	for _, d := range sets {
		t.Run(string(d.Type), func(t *testing.T) {
			want := make([]uint64, layout.Len()) // each shard's keys
			if err := d.ListKeys(t.Context(), func(_ int, key []byte, _ bool) { want[layout.ShardOf(key)]++ }); err != nil {
				t.Fatal(err)
			}
			for _, n := range c.Nodes {
				if err := n.Client().FlushAll(t.Context()).Err(); err != nil {
					t.Fatal(err)
				}
			}
			for shard := range layout.Len() {
				res, err := loader.Load(t.Context(), d, loader.Options{Addr: c.Nodes[2].Addr, Cluster: true, Shard: &shard, Shards: 3})
				if err != nil {
					t.Fatal(err)
				}
				if res.Keys != want[shard] || len(res.Nodes) != 1 || res.Nodes[c.Nodes[shard].Addr].Keys != want[shard] {
					t.Fatalf("shard %d: result %+v, want %d keys on %s alone", shard, res, want[shard], c.Nodes[shard].Addr)
				}
				for i, n := range servertest.NodeKeys(t, c, layout) {
					if i > shard && n != 0 || i <= shard && n != want[i] {
						t.Fatalf("after shard %d, node %d holds %d keys, want %d", shard, i, n, want[i])
					}
				}
			}
		})
	}
	t.Run("not a cluster", func(t *testing.T) {
		zero := 0
		_, err := loader.Load(t.Context(), sets[0], loader.Options{Addr: c.Nodes[0].Addr, Shard: &zero, Shards: 3})
		if !errors.Is(err, loader.ErrInvalidOption) || !strings.Contains(err.Error(), "goes with Cluster") {
			t.Fatalf("got %v", err)
		}
	})
	// A job of two or four pods for a cluster of three primaries: every pod refuses, else
	// a primary would get nothing (two pods) or a pod nothing to do (four).
	for _, shards := range []int{2, 4} {
		t.Run(fmt.Sprintf("job of %d shards", shards), func(t *testing.T) {
			for _, n := range c.Nodes {
				if err := n.Client().FlushAll(t.Context()).Err(); err != nil {
					t.Fatal(err)
				}
			}
			for shard := range shards {
				_, err := loader.Load(t.Context(), sets[0], loader.Options{Addr: c.Nodes[0].Addr, Cluster: true, Shard: &shard, Shards: shards})
				want := fmt.Sprintf("shard %d of %d: the cluster of %s has 3 primaries, and each needs a shard of its own: run the job with 3 shards", shard, shards, c.Nodes[0].Addr)
				var le *loader.Error
				if !errors.As(err, &le) || !strings.Contains(err.Error(), want) {
					t.Fatalf("got %v, want %s", err, want)
				}
			}
			for i, n := range servertest.NodeKeys(t, c, layout) {
				if n != 0 {
					t.Fatalf("node %d holds %d keys after the refusals", i, n)
				}
			}
		})
	}
	t.Run("no count", func(t *testing.T) {
		zero := 0
		_, err := loader.Load(t.Context(), sets[0], loader.Options{Addr: c.Nodes[0].Addr, Cluster: true, Shard: &zero})
		if !errors.Is(err, loader.ErrInvalidOption) {
			t.Fatalf("got %v", err)
		}
	})
}
