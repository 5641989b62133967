package loader_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
)

// TestLoadIntoCluster loads datasets into a running cluster of three primaries through a
// seed, by every method: every key lands on its slot's primary, and the nodes' counts,
// as the load reports them and as the nodes tell, add up to the dataset's.
func TestLoadIntoCluster(t *testing.T) {
	c, layout := servertest.StartCluster(t)
	sets := []*dataset.Config{
		{Count: 3000, KeyPrefix: "key", KeyStart: 1, TTL: time.Hour, BaseTimeMS: time.Now().UnixMilli()},
		{Count: 500, Type: record.Hash, Members: dataset.Range{Min: 1, Max: 30}, KeyPrefix: "h:"},
	}
	for _, d := range sets {
		for _, m := range loader.Methods() {
			t.Run(fmt.Sprintf("%s/%s", d.Type, m), func(t *testing.T) {
				for _, n := range c.Nodes {
					if err := n.Client().FlushAll(t.Context()).Err(); err != nil {
						t.Fatal(err)
					}
				}
				seed := c.Nodes[1].Addr
				res, err := loader.Load(t.Context(), d, loader.Options{Addr: seed, Cluster: true, Method: m})
				if err != nil {
					t.Fatal(err)
				}
				if res.Keys != d.Count || res.Expires != d.Expires() || len(res.Nodes) != 3 {
					t.Fatalf("result %+v, want %d keys, %d expiring, on 3 nodes", res, d.Count, d.Expires())
				}
				var total uint64
				for i, n := range c.Nodes {
					keys, err := n.Client().Keys(t.Context(), "*").Result()
					if err != nil {
						t.Fatal(err)
					}
					for _, k := range keys {
						if owner := layout.Owner(cluster.Slot([]byte(k))); owner != i {
							t.Fatalf("key %q is on node %d, its slot's owner is %d", k, i, owner)
						}
					}
					if got := res.Nodes[n.Addr].Keys; got != uint64(len(keys)) {
						t.Fatalf("node %s holds %d keys, the load says %d", n.Addr, len(keys), got)
					}
					total += uint64(len(keys))
				}
				if total != d.Count {
					t.Fatalf("the nodes hold %d keys, want %d", total, d.Count)
				}
			})
		}
	}
}

// movingSource writes some strings, then has the cluster move the slot of its last key
// to another primary, then writes that key.
type movingSource struct {
	c    *localcluster.Cluster
	from int    // the node that owns the slot when the load starts
	to   string // the id of the node it moves to
	key  []byte
	t    *testing.T
}

func (s *movingSource) WriteTo(ctx context.Context, sink record.Sink) error {
	if err := sink.BeginDB(0, record.Counts{}); err != nil {
		return err
	}
	slot := cluster.Slot(s.key)
	for i := range 100 {
		k := fmt.Appendf(nil, "k%d", i)
		if cluster.Slot(k) == slot {
			continue
		}
		if err := sink.Begin(&record.Header{Key: k, Type: record.String, Value: k}); err != nil {
			return err
		}
	}
	if err := s.c.Nodes[s.from].Client().Do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", s.to).Err(); err != nil {
		s.t.Errorf("move slot %d: %v", slot, err)
	}
	return sink.Begin(&record.Header{Key: s.key, Type: record.String, Value: []byte("v")})
}

// TestClusterMovedMidLoad: a slot that moves to another primary mid-load makes the load
// fail with an error that names the key and the node that answered MOVED.
func TestClusterMovedMidLoad(t *testing.T) {
	c, layout := servertest.StartCluster(t)
	for _, m := range []loader.Method{loader.Mass, loader.Pipeline, loader.Auto} {
		t.Run(string(m), func(t *testing.T) {
			key := []byte("moved:" + string(m))
			from := layout.Owner(cluster.Slot(key))
			src := &movingSource{c: c, from: from, to: c.Nodes[(from+1)%3].ID, key: key, t: t}
			_, err := loader.Load(t.Context(), src, loader.Options{Addr: c.Nodes[0].Addr, Cluster: true, Method: m})
			var le *loader.Error
			want := fmt.Sprintf(`write key %q: %s answered MOVED %d %s`, key, c.Nodes[from].Addr, cluster.Slot(key), c.Nodes[(from+1)%3].Addr)
			if !errors.As(err, &le) || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want an error containing %q", err, want)
			}
			// The load went into the cluster, not into the seed alone.
			if into := "load into the cluster of " + c.Nodes[0].Addr + " stopped"; !strings.HasPrefix(err.Error(), into) {
				t.Errorf("got %v, want it to begin %q", err, into)
			}
		})
	}
}
