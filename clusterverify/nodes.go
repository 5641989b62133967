package clusterverify

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/localcluster"
	"github.com/rdbgen/rdbgen/manifest"
)

// checkNodes compares each node's counts with its manifest and checks that it holds keys of
// its own slots only; it adds up the counts.
func checkNodes(ctx context.Context, c *localcluster.Cluster, set *manifest.ClusterSet, rep *Report, ms *mismatches) error {
	for i, n := range c.Nodes {
		m := set.Manifests[i]
		name := filepath.Base(n.File)
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
		dbs := parseKeyspace(info)
		for db, kv := range dbs {
			if db != 0 {
				ms.add(Mismatch{Node: name, What: "keys in db " + strconv.Itoa(db), Got: strconv.FormatUint(kv[0], 10), Want: "none: a cluster node holds db 0 only"})
			}
		}
		nr.Keys, nr.Expires = dbs[0][0], dbs[0][1]
		if nr.Keys != nr.WantKeys {
			ms.add(Mismatch{Node: name, What: "keys", Got: strconv.FormatUint(nr.Keys, 10), Want: fmt.Sprintf("%d (manifest)", nr.WantKeys)})
		}
		if nr.Expires != nr.WantExpires {
			ms.add(Mismatch{Node: name, What: "keys with a TTL", Got: strconv.FormatUint(nr.Expires, 10), Want: fmt.Sprintf("%d (manifest)", nr.WantExpires)})
		}
		for _, r := range n.Claimed {
			for s := r.First; s <= r.Last; s++ {
				if o := set.Layout.Owner(s); o != i {
					ms.add(Mismatch{Node: name, What: "slot " + strconv.Itoa(s), Got: "the node claimed it when it loaded its keys",
						Want: "owned by " + cluster.ShardFile(o)})
					break
				}
			}
		}
		if err := checkSlots(ctx, n.Client(), i, name, n.Planned, nr.Keys, set.Layout, ms); err != nil {
			return err
		}
		rep.Nodes = append(rep.Nodes, nr)
		rep.Keys += nr.Keys
		rep.Expires += nr.Expires
		rep.WantKeys += nr.WantKeys
		rep.WantExpires += nr.WantExpires
	}
	if want := datasetKeys(set); want >= 0 && uint64(want) != rep.WantKeys {
		ms.add(Mismatch{What: "keys of all manifests", Got: strconv.FormatUint(rep.WantKeys, 10), Want: fmt.Sprintf("%d (the dataset's)", want)})
	}
	if rep.Keys != rep.WantKeys {
		ms.add(Mismatch{What: "keys of all nodes", Got: strconv.FormatUint(rep.Keys, 10), Want: fmt.Sprintf("%d (manifests)", rep.WantKeys)})
	}
	return nil
}

// checkSlots counts the keys of each of the node's planned slots (CLUSTER COUNTKEYSINSLOT):
// when they do not add up to the node's keys, it looks for the other slots the node holds
// keys of, and names the first.
func checkSlots(ctx context.Context, rc *redis.Client, shard int, name string, planned []cluster.Range, keys uint64, layout *cluster.Layout, ms *mismatches) error {
	var sum uint64
	for _, r := range planned {
		n, err := countKeys(ctx, rc, r.First, r.Last)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, k := range n {
			sum += k
		}
	}
	if sum == keys {
		return nil
	}
	n, err := countKeys(ctx, rc, 0, cluster.Slots-1)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for s, k := range n {
		if o := layout.Owner(s); o != shard && k > 0 {
			ms.add(Mismatch{Node: name, What: "keys of slot " + strconv.Itoa(s), Got: strconv.FormatUint(k, 10),
				Want: "none: " + cluster.ShardFile(o) + " owns the slot"})
			return nil
		}
	}
	ms.add(Mismatch{Node: name, What: "keys of its slots", Got: strconv.FormatUint(sum, 10), Want: fmt.Sprintf("%d (INFO keyspace)", keys)})
	return nil
}

// countKeys returns the keys of slots first to last of the node of rc.
func countKeys(ctx context.Context, rc *redis.Client, first, last int) ([]uint64, error) {
	out := make([]uint64, 0, last-first+1)
	for lo := first; lo <= last; lo += 1024 {
		hi := min(lo+1023, last)
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

// parseKeyspace reads INFO keyspace: for each db, its keys and keys with an expiry.
func parseKeyspace(info string) map[int][2]uint64 {
	out := map[int][2]uint64{}
	for line := range strings.Lines(info) {
		name, fields, ok := strings.Cut(strings.TrimSpace(line), ":")
		db, err := strconv.Atoi(strings.TrimPrefix(name, "db"))
		if !ok || !strings.HasPrefix(name, "db") || err != nil {
			continue
		}
		var kv [2]uint64
		for f := range strings.SplitSeq(fields, ",") {
			k, v, _ := strings.Cut(f, "=")
			n, _ := strconv.ParseUint(v, 10, 64)
			switch k {
			case "keys":
				kv[0] = n
			case "expires":
				kv[1] = n
			}
		}
		out[db] = kv
	}
	return out
}
