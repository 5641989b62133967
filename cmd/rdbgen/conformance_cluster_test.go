package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// clusterRows are the paths of TestConformanceCluster that read the live cluster as a whole
// (--cluster): each puts every primary's keys into one file, one RESP stream or one
// standalone server, which the cluster's own state must equal.
var clusterRows = []conformanceRow{
	{name: "convert --cluster", kind: toFile, args: []string{"convert", "--cluster", "--target", "redis-7.0"}, live: true},
	{name: "convert --cluster --via scan", kind: toFile, args: []string{"convert", "--cluster", "--via", "scan", "--target", "redis-7.0"}, live: true},
	{name: "convert --cluster --target redis-6.2", kind: toFile, args: []string{"convert", "--cluster", "--target", "redis-6.2"}, live: true, rdb9: true},
	{name: "import --cluster", kind: toFile, args: []string{"import", "--cluster", "--target", "redis-7.0"}, live: true},
	{name: "convert --cluster --format resp", kind: toRESP, args: []string{"convert", "--cluster", "--format", "resp", "--target", "redis-7.0"}, live: true},
	{name: "convert --cluster --via scan --format resp --target redis-5.0", kind: toRESP, args: []string{"convert", "--cluster", "--via", "scan", "--format", "resp", "--target", "redis-5.0"}, live: true, rdb9: true},
}

// loadMethods are load's methods, each with the flags a row gives it.
var loadMethods = [][]string{
	{"--method", "sequential"},
	{"--method", "parallel", "--workers", "4"},
	{"--method", "pipeline", "--workers", "3", "--batch", "50"},
	{"--method", "mass"},
	{"--method", "restore", "--workers", "2"},
}

// TestConformanceCluster puts a live three-primary cluster of real redis-servers through
// every command that reads a dump or a server, the cluster as the oracle: DEBUG DIGEST (of
// the whole key set, the XOR of the three primaries' digests; and per primary for shard
// files), every key's DEBUG DIGEST-VALUE and PEXPIRETIME, FUNCTION LIST WITHCODE, XINFO
// STREAM FULL and XPENDING of every stream. The cluster is filled once (fillCluster: every
// type in small and large encodings, TTLs, streams with groups and a deleted pending entry,
// two libraries on every primary) and serves every row:
//   - the paths that read the cluster themselves (clusterRows), by sync and by scan, to RDB
//     10 and 9 and to RESP;
//   - --cluster -o DIR/ (one shard file per primary) and --shard-index (a pod), each file
//     equal to its primary;
//   - inspect of each primary (the keys and libraries it holds);
//   - the commands that refuse a server (export, diff, merge, verify, load by every method):
//     each says "write it to a file first" naming --cluster, and each reads the files the
//     cluster was written to (export then import, merge of the shard files, diff of the sync
//     and scan files, verify, load by every method into a standalone server and, last, back
//     into the emptied cluster with --cluster).
func TestConformanceCluster(t *testing.T) {
	redistest.RedisCLI(t)
	c, _ := servertest.StartCluster(t, "--enable-debug-command", "yes")
	fillCluster(t, c)
	want, perNode := clusterState(t, c)
	if len(want.functions) != 2 || len(want.streams) < 9 || len(want.expiry[0]) < 2000 {
		t.Fatalf("the cluster holds %v: want 2 libraries, 9 streams, 2000 keys", want)
	}
	url := "redis://" + c.Nodes[1].Addr
	target := servertest.StartEmpty(t, "--enable-debug-command", "yes")

	for _, row := range clusterRows {
		t.Run(row.name, func(t *testing.T) { row.check(t, url, target.Addr, want) })
	}

	// The files the other commands read: one file by sync and by scan, one per primary.
	dir := t.TempDir()
	one, scanned, shards := filepath.Join(dir, "one.rdb"), filepath.Join(dir, "scan.rdb"), filepath.Join(dir, "shards")+"/"
	for _, args := range [][]string{
		{"convert", url, "--cluster", "-q", "--target", "redis-7.0", "-o", one},
		{"convert", url, "--cluster", "-q", "--target", "redis-7.0", "--via", "scan", "-o", scanned},
		{"convert", url, "--cluster", "-q", "--target", "redis-7.0", "-o", shards},
	} {
		if _, stderr, err := run(t, t.Context(), args...); err != nil {
			t.Fatalf("rdbgen %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
	}
	shardFile := func(i int) string { return filepath.Join(shards, fmt.Sprintf("shard-%d.rdb", i)) }

	t.Run("convert --cluster -o DIR/", func(t *testing.T) {
		for i := range c.Nodes {
			got := readState(t, servertest.Start(t, shardFile(i), "--enable-debug-command", "yes").Addr)
			for _, d := range diffState(perNode[i], got, stateOptions{}) {
				t.Errorf("shard %d: %s", i, d)
			}
		}
	})
	t.Run("convert --cluster -o DIR/ --shard-index 1", func(t *testing.T) {
		pod := filepath.Join(t.TempDir(), "pod") + "/"
		args := []string{"convert", url, "--cluster", "-q", "--target", "redis-7.0", "-o", pod, "--shard-index", "1", "--shard-count", "3", "--base-time", podBaseTime}
		if _, stderr, err := run(t, t.Context(), args...); err != nil {
			t.Fatalf("rdbgen %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		got := readState(t, servertest.Start(t, filepath.Join(pod, "shard-1.rdb"), "--enable-debug-command", "yes").Addr)
		for _, d := range diffState(perNode[1], got, stateOptions{}) {
			t.Error(d)
		}
	})
	t.Run("inspect redis:// of each primary", func(t *testing.T) {
		for i, n := range c.Nodes {
			stdout, stderr, err := run(t, t.Context(), "inspect", "redis://"+n.Addr, "--json")
			if err != nil {
				t.Fatalf("inspect %s: %v\n%s", n.Addr, err, stderr)
			}
			var rep inspect.Report
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatal(err)
			}
			if keys := uint64(len(perNode[i].expiry[0])); rep.Memory.Keys != keys || rep.Functions != len(perNode[i].functions) {
				t.Errorf("inspect primary %d: %d keys, %d libraries; it holds %d, %d", i, rep.Memory.Keys, rep.Functions, keys, len(perNode[i].functions))
			}
		}
		_, _, err := run(t, t.Context(), "inspect", url, "--cluster")
		if err == nil || !strings.Contains(err.Error(), "name a primary, without --cluster") {
			t.Errorf("inspect --cluster: %v", err)
		}
	})

	// The commands that refuse a server say so, with the way out for a cluster.
	refusing := [][]string{{"export", url, "-o", filepath.Join(dir, "x.json")}, {"diff", url, one},
		{"merge", url, "-o", filepath.Join(dir, "x.rdb")}, {"verify", url}}
	for _, m := range loadMethods {
		refusing = append(refusing, append(append([]string{"load"}, m...), "--addr", target.Addr, url))
	}
	for _, args := range refusing {
		name := args[0]
		if name == "load" {
			name += " " + args[2]
		}
		t.Run(name+" redis:// refused", func(t *testing.T) {
			_, _, err := run(t, t.Context(), args...)
			if err == nil || !strings.Contains(err.Error(), "write it to a file first") || !strings.Contains(err.Error(), "--cluster") {
				t.Errorf("rdbgen %s: %v, want \"write it to a file first\" and --cluster", strings.Join(args, " "), err)
			}
		})
	}

	// ... and read the files the cluster was written to.
	t.Run("export, import", func(t *testing.T) {
		conformanceRow{kind: viaJSON, args: []string{"import", "--target", "redis-7.0"}}.check(t, one, target.Addr, want)
	})
	t.Run("merge of the shard files", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "merged.rdb")
		args := []string{"merge", "-q", "--target", "redis-7.0", "-o", out, shardFile(0), shardFile(1), shardFile(2)}
		if _, stderr, err := run(t, t.Context(), args...); err != nil {
			t.Fatalf("rdbgen %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		for _, d := range diffState(want, readState(t, servertest.Start(t, out, "--enable-debug-command", "yes").Addr), stateOptions{}) {
			t.Error(d)
		}
		if stdout, stderr, err := run(t, t.Context(), "diff", one, out); err != nil || !strings.Contains(stdout, " 0 differing") {
			t.Errorf("diff of the cluster's file and the merged shards: %v\n%s%s", err, stdout, stderr)
		}
	})
	t.Run("diff of the sync and scan files", func(t *testing.T) {
		if stdout, stderr, err := run(t, t.Context(), "diff", one, scanned); err != nil || !strings.Contains(stdout, " 0 differing") {
			t.Errorf("%v\n%s%s", err, stdout, stderr)
		}
	})
	t.Run("verify", func(t *testing.T) {
		for _, args := range [][]string{{"verify", one}, {"verify", scanned}, {"verify", "--cluster", shards}} {
			stdout, stderr, err := run(t, t.Context(), append(args, process(t)...)...)
			if err != nil || !strings.Contains(stdout, "PASS") {
				t.Errorf("rdbgen %s: %v\n%s%s", strings.Join(args, " "), err, stdout, stderr)
			}
		}
	})
	for _, m := range loadMethods {
		t.Run("load "+strings.Join(m, " "), func(t *testing.T) {
			conformanceRow{kind: online, args: append([]string{"load"}, m...)}.check(t, one, target.Addr, want)
		})
	}
	// Last, as it empties the oracle: load --cluster back into the cluster, by every method.
	for _, m := range loadMethods {
		t.Run("load --cluster "+strings.Join(m, " "), func(t *testing.T) {
			for _, n := range c.Nodes {
				resetServer(t, n.Addr)
			}
			args := append(append([]string{"load", "--cluster", "-q"}, m...), "--addr", c.Nodes[0].Addr, one)
			if _, stderr, err := run(t, t.Context(), args...); err != nil {
				t.Fatalf("rdbgen %s: %v\n%s", strings.Join(args, " "), err, stderr)
			}
			_, got := clusterState(t, c)
			for i := range c.Nodes {
				// load puts keys, not libraries, on a cluster: the libraries are compared
				// where the files carry them.
				o := stateOptions{noFunctions: len(got[i].functions) == 0}
				for _, d := range diffState(perNode[i], got[i], o) {
					t.Errorf("primary %d: %s", i, d)
				}
			}
		})
	}
}

// clusterState reads the state of every primary of c, and their union: one key set whose
// DEBUG DIGEST is the XOR of the primaries' (each primary's digest is the XOR of its keys'
// digests with that of database 0's number; three of those give one), the libraries that
// every primary holds alike.
func clusterState(t *testing.T, c *localcluster.Cluster) (serverState, []serverState) {
	t.Helper()
	if len(c.Nodes)%2 != 1 {
		t.Fatalf("the XOR of %d primaries' digests is not the digest of their union", len(c.Nodes))
	}
	all := serverState{expiry: map[int]map[string]int64{0: {}}, values: map[int]map[string]string{0: {}}, dbsize: map[int]int64{},
		streams: map[string]map[string]any{}, pending: map[string]string{}, entries: map[string][]pendingEntry{}}
	digest := make([]byte, 20)
	var nodes []serverState
	for i, n := range c.Nodes {
		st := readState(t, n.Addr)
		nodes = append(nodes, st)
		d, err := hex.DecodeString(st.digest)
		if err != nil || len(d) != len(digest) {
			t.Fatalf("DEBUG DIGEST of %s: %q", n.Addr, st.digest)
		}
		for j := range d {
			digest[j] ^= d[j]
		}
		if i == 0 {
			all.functions = st.functions
		} else if !reflect.DeepEqual(st.functions, all.functions) {
			t.Fatalf("the primaries hold different libraries: %v and %v", st.functions, all.functions)
		}
		for db, keys := range st.expiry {
			if db != 0 {
				t.Fatalf("a cluster node holds db %d", db)
			}
			for k, ms := range keys {
				all.expiry[0][k], all.values[0][k] = ms, st.values[0][k]
			}
		}
		all.dbsize[0] += st.dbsize[0]
		for k, v := range st.streams {
			all.streams[k] = v
		}
		for k, v := range st.pending {
			all.pending[k] = v
		}
		for k, v := range st.entries {
			all.entries[k] = v
		}
	}
	all.digest = hex.EncodeToString(digest)
	return all, nodes
}
