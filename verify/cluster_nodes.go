package verify

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/manifest"
)

// checkNodes compares each node's counts with its manifest and checks that it holds keys of
// its own slots only; it adds up the counts, which must make the dataset's e.
func checkNodes(ctx context.Context, c *localcluster.Cluster, set *manifest.ClusterSet, e expectation, rep *ClusterReport, ms *mismatches) error {
	for i, n := range c.Nodes {
		m := set.Manifests[i]
		name := filepath.Base(n.File)
		fail := func(what, got, want string) {
			ms.add(Mismatch{Stage: StageServer, Node: name, What: what, Got: got, Want: want})
		}
		nr := NodeReport{File: n.File, Addr: n.Addr, NodeID: n.ID, Container: n.Container,
			WantKeys: m.Keys, WantExpires: m.Expires,
			LoadSeconds: n.LoadDuration.Seconds(), ServerLoadSeconds: n.ServerLoadDuration.Seconds()}
		for _, r := range n.Planned {
			nr.Slots = append(nr.Slots, r.String())
		}
		info, err := n.Client().Info(ctx, "keyspace").Result()
		if err != nil {
			return fmt.Errorf("INFO keyspace on %s: %w", n.Addr, err)
		}
		dbs, err := parseKeyspace(info)
		if err != nil {
			return err
		}
		for db, kv := range dbs {
			if db != 0 {
				fail(fmt.Sprintf("keys in db %d", db), fmt.Sprint(kv.Keys), "none: a cluster node holds db 0 only")
			}
		}
		nr.Keys, nr.Expires = dbs[0].Keys, dbs[0].Expires
		if nr.Keys != nr.WantKeys {
			fail("keys", fmt.Sprint(nr.Keys), fmt.Sprintf("%d (manifest)", nr.WantKeys))
		}
		if nr.Expires != nr.WantExpires {
			fail("keys with TTL", fmt.Sprint(nr.Expires), fmt.Sprintf("%d (manifest)", nr.WantExpires))
		}
		if count, first := strays(n.Claimed, i, set.Layout); count > 0 {
			fail("slots of other shards", fmt.Sprintf("%d claimed by this node, which loaded keys of them, from slot %d", count, first),
				fmt.Sprintf("none: slot %d is %s's", first, cluster.ShardFile(set.Layout.Owner(first))))
		}
		if err := checkSlots(ctx, n.Client(), i, n.Planned, nr.Keys, set.Layout, fail); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rep.Nodes = append(rep.Nodes, nr)
		rep.Keys += nr.Keys
		rep.Expires += nr.Expires
		rep.WantKeys += nr.WantKeys
		rep.WantExpires += nr.WantExpires
	}
	fail := func(what, got, want string) { ms.add(Mismatch{Stage: StageServer, What: what, Got: got, Want: want}) }
	if len(e.parts) > 0 {
		var want uint64
		for _, p := range e.parts {
			want += p.count
		}
		if want != rep.WantKeys {
			fail("keys of all manifests", fmt.Sprint(rep.WantKeys), fmt.Sprintf("%d (the dataset's)", want))
		}
	}
	if rep.Keys != rep.WantKeys {
		fail("keys of all nodes", fmt.Sprint(rep.Keys), fmt.Sprintf("%d (manifests)", rep.WantKeys))
	}
	return nil
}

// strays returns how many slots of ranges shard does not own, and the first of them.
func strays(ranges []cluster.Range, shard int, layout *cluster.Layout) (count, first int) {
	for _, r := range ranges {
		for s := r.First; s <= r.Last; s++ {
			if layout.Owner(s) != shard {
				if count == 0 {
					first = s
				}
				count++
			}
		}
	}
	return count, first
}

// checkSlots counts the keys of each of the node's planned slots (CLUSTER COUNTKEYSINSLOT).
// When they do not add up to the node's keys, it counts the keys of every slot and names the
// first slot of another shard that the node holds keys of.
func checkSlots(ctx context.Context, rc *redis.Client, shard int, planned []cluster.Range, keys uint64, layout *cluster.Layout, fail func(what, got, want string)) error {
	var sum uint64
	for _, r := range planned {
		n, err := countKeysInSlots(ctx, rc, r)
		if err != nil {
			return err
		}
		for _, k := range n {
			sum += k
		}
	}
	if sum == keys {
		return nil
	}
	n, err := countKeysInSlots(ctx, rc, cluster.Range{First: 0, Last: cluster.Slots - 1})
	if err != nil {
		return err
	}
	for s, k := range n {
		if o := layout.Owner(s); o != shard && k > 0 {
			fail("keys of slot "+strconv.Itoa(s), fmt.Sprint(k), "none: "+cluster.ShardFile(o)+" owns the slot")
			return nil
		}
	}
	fail("keys of its slots", fmt.Sprint(sum), fmt.Sprintf("%d (INFO keyspace)", keys))
	return nil
}

// countKeysInSlots returns the keys the node of rc holds in each slot of r, in pipelines of
// a thousand slots.
func countKeysInSlots(ctx context.Context, rc *redis.Client, r cluster.Range) ([]uint64, error) {
	out := make([]uint64, 0, r.Len())
	for lo := r.First; lo <= r.Last; lo += 1000 {
		hi := min(lo+999, r.Last)
		p := rc.Pipeline()
		cmds := make([]*redis.IntCmd, 0, hi-lo+1)
		for s := lo; s <= hi; s++ {
			cmds = append(cmds, p.ClusterCountKeysInSlot(ctx, s))
		}
		if _, err := p.Exec(ctx); err != nil {
			return nil, fmt.Errorf("CLUSTER COUNTKEYSINSLOT: %w", err)
		}
		for _, c := range cmds {
			out = append(out, uint64(c.Val()))
		}
	}
	return out, nil
}
