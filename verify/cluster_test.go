package verify_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
	"github.com/rdbgen/rdbgen/verify"
)

// split writes the shard files of d as rdbgen does, split by files, with manifests that
// describe the split by layout (the same, unless a test wants them to disagree), after
// change has modified each.
func split(t *testing.T, d *dataset.Config, files, layout *cluster.Layout, change func(i int, m *manifest.Manifest)) string {
	t.Helper()
	dir := t.TempDir()
	created := time.Now().UTC()
	dsts, paths := create(t, dir, files.Len())
	res, err := output.WriteShards(context.Background(), dsts, d, files, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range res.Shards {
		m := shardManifest(st.Index, layout, st.Stats, res, created)
		m.Dataset = d
		change(i, m)
		if err := manifest.Write(manifest.PathFor(paths[i]), m); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// create makes n empty shard files in dir.
func create(t *testing.T, dir string, n int) ([]io.Writer, []string) {
	t.Helper()
	files := make([]io.Writer, n)
	paths := make([]string, n)
	for i := range n {
		paths[i] = filepath.Join(dir, cluster.ShardFile(i))
		f, err := os.Create(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		files[i] = f
	}
	return files, paths
}

// shardManifest returns the manifest of shard i as rdbgen writes it, without its records.
func shardManifest(i int, layout *cluster.Layout, st encoder.Stats, res *output.Result, created time.Time) *manifest.Manifest {
	m := &manifest.Manifest{Format: manifest.FormatVersion, CreatedAt: created, Target: res.Target, RDBVersion: res.RDBVersion,
		Checksum: manifest.FormatChecksum(st.Checksum), Bytes: st.Bytes, Keys: st.Keys, Expires: st.Expires,
		DBs:     map[int]record.Counts{0: {Keys: st.Keys, Expires: st.Expires}},
		Cluster: &manifest.Shard{Index: i, Shards: layout.Len(), Slots: layout.Shard(i).Ranges}}
	return m
}

func TestClusterPasses(t *testing.T) {
	base := time.Now().UnixMilli()
	d := &dataset.Config{Count: 5000, KeyPrefix: "key", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 30, Seed: 3,
		TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base}
	even, _ := cluster.Even(3)
	uneven, err := cluster.NewLayout([]cluster.Shard{
		{Ranges: []cluster.Range{{First: 0, Last: 999}, {First: 10000, Last: 16383}}},
		{Ranges: []cluster.Range{{First: 1000, Last: 1998}}},
		{Ranges: []cluster.Range{{First: 1999, Last: 9999}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Sorted sets whose keys share one hash tag: one shard holds them all.
	tagged := &dataset.Config{Count: 600, KeyPrefix: "{user}:", KeyStart: 1, Type: record.ZSet, Members: dataset.Range{Min: 1, Max: 50}, Seed: 2}
	cases := map[string]struct {
		d      *dataset.Config
		layout *cluster.Layout
		opts   verify.Options
	}{
		"even, process":             {d, even, verify.Options{Server: processOptions(t)}},
		"uneven, process, hash tag": {tagged, uneven, verify.Options{Server: processOptions(t)}},
		"even, docker":              {d, even, verify.Options{Server: dockerOptions(t)}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := split(t, tc.d, tc.layout, tc.layout, func(int, *manifest.Manifest) {})
			stages := map[verify.Stage]bool{}
			tc.opts.Progress = func(p record.Progress) { stages[verify.Stage(p.Stage)] = true }
			rep, err := verify.Cluster(testContext(t), dir, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Pass {
				t.Fatalf("FAIL: %s; %+v", rep.Reason, rep.Mismatches)
			}
			if rep.Keys != tc.d.Count || rep.WantKeys != tc.d.Count || len(rep.Nodes) != tc.layout.Len() || rep.LoadSeconds <= 0 || len(stages) != 3 {
				t.Fatalf("report %+v, stages %v", rep, stages)
			}
			for i, f := range rep.Files {
				if !f.Parsed || f.ChecksumStatus != verify.ChecksumOK || f.Keys != rep.Nodes[i].Keys {
					t.Fatalf("file %+v", f)
				}
			}
			if rep.Sampled < 500 {
				t.Fatalf("sampled %d records", rep.Sampled)
			}
			for _, n := range rep.Nodes {
				if n.Keys != n.WantKeys || n.LoadSeconds <= 0 || len(n.NodeID) != 40 || (rep.Backend == "docker") != (n.Container != "") {
					t.Fatalf("node %+v", n)
				}
			}
			if tc.d == tagged {
				owner := tc.layout.ShardOf([]byte("{user}"))
				if rep.Nodes[owner].Keys != tagged.Count {
					t.Fatalf("hash-tagged keys spread: %+v", rep.Nodes)
				}
			}
		})
	}
}

// TestClusterSpec verifies a split spec file: the records recomputed from the manifests' spec.
func TestClusterSpec(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../examples/spring-data-redis.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse("spring-data-redis.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Params
	p.BaseTimeMS, p.CountScale = time.Now().UnixMilli(), 0.05
	if err := s.SetParams(p); err != nil {
		t.Fatal(err)
	}
	layout, _ := cluster.Even(3)
	dir := t.TempDir()
	dsts, paths := create(t, dir, 3)
	res, err := output.WriteShards(context.Background(), dsts, s, layout, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	if err != nil {
		t.Fatal(err)
	}
	created := time.Now().UTC()
	for i, st := range res.Shards {
		m := shardManifest(st.Index, layout, st.Stats, res, created)
		m.Spec = &manifest.SpecFile{File: "spring-data-redis.yaml", YAML: string(src), Params: s.Params}
		if err := manifest.Write(manifest.PathFor(paths[i]), m); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := verify.Cluster(testContext(t), dir, verify.Options{Server: processOptions(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Pass || rep.Keys != s.Keys() || rep.Sampled == 0 {
		t.Fatalf("report %+v", rep)
	}
}

// TestClusterFails checks that what differs is found: files split otherwise than their
// manifests say, a wrong count, values the manifests do not compute.
func TestClusterFails(t *testing.T) {
	d := &dataset.Config{Count: 3000, KeyPrefix: "key", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 20, Seed: 1}
	even, _ := cluster.Even(3)
	other, _ := cluster.NewLayout([]cluster.Shard{
		{Ranges: []cluster.Range{{First: 0, Last: 4000}}},
		{Ranges: []cluster.Range{{First: 4001, Last: 11000}}},
		{Ranges: []cluster.Range{{First: 11001, Last: 16383}}},
	})
	cases := map[string]struct {
		files  *cluster.Layout
		change func(i int, m *manifest.Manifest)
		want   []string
	}{
		"split otherwise": {other, func(int, *manifest.Manifest) {}, []string{
			"server: shard-1.rdb: slots of other shards: got ", " claimed by this node, which loaded keys of them, from slot 400",
			"want none: slot 400", "is shard-0.rdb's", "server: shard-1.rdb: keys of slot 400"}},
		"other values": {even, func(i int, m *manifest.Manifest) {
			dd := *d
			dd.Seed = 2
			m.Dataset = &dd
		}, []string{"server: db 0 key ", ": value: got "}},
		// Caught offline: the cluster is not started.
		"wrong count": {even, func(i int, m *manifest.Manifest) {
			if i == 2 {
				m.Keys++
			}
		}, []string{"file: shard-2.rdb: keys: got "}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := split(t, d, tc.files, even, tc.change)
			rep, err := verify.Cluster(testContext(t), dir, verify.Options{Server: processOptions(t)})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Pass || !strings.Contains(rep.Reason, tc.want[0]) {
				t.Fatalf("report: pass %v, reason %q, want %q", rep.Pass, rep.Reason, tc.want[0])
			}
			for _, w := range tc.want {
				found := false
				for _, m := range rep.Mismatches {
					found = found || strings.Contains(m.String(), w)
				}
				if !found {
					t.Errorf("no mismatch %q in %v", w, rep.Mismatches)
				}
			}
		})
	}
}

// TestClusterFileStage checks the files before any node starts: a flipped byte fails the
// offline stage of its shard, and with Offline nothing is started at all.
func TestClusterFileStage(t *testing.T) {
	d := &dataset.Config{Count: 2000, KeyPrefix: "k", KeyStart: 1}
	even, _ := cluster.Even(2)
	dir := split(t, d, even, even, func(int, *manifest.Manifest) {})
	rep, err := verify.Cluster(testContext(t), dir, verify.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Pass || len(rep.Files) != 2 || rep.Backend != "" || rep.Files[0].Keys+rep.Files[1].Keys != d.Count {
		t.Fatalf("offline report %+v", rep)
	}
	path := filepath.Join(dir, "shard-1.rdb")
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 0x20
	os.WriteFile(path, b, 0o644)
	rep, err = verify.Cluster(testContext(t), dir, verify.Options{Server: processOptions(t)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pass || !strings.HasPrefix(rep.Reason, "file: shard-1.rdb: checksum: ") || rep.Backend != "" {
		t.Fatalf("report: pass %v, reason %q, backend %q", rep.Pass, rep.Reason, rep.Backend)
	}
}

func TestClusterErrors(t *testing.T) {
	if _, err := verify.Cluster(context.Background(), t.TempDir(), verify.Options{}); err == nil || !strings.Contains(err.Error(), "holds no shard files") {
		t.Fatalf("empty directory: %v", err)
	}
	d := &dataset.Config{Count: 10, KeyPrefix: "k"}
	even, _ := cluster.Even(2)
	dir := split(t, d, even, even, func(i int, m *manifest.Manifest) {
		if i == 1 {
			m.CreatedAt = m.CreatedAt.Add(time.Second)
		}
	})
	if _, err := verify.Cluster(context.Background(), dir, verify.Options{}); err == nil || !strings.Contains(err.Error(), "are not shards of one split") {
		t.Fatalf("two runs: %v", err)
	}
}

// TestFileOfOneShard verifies one shard file on a standalone server: the sampled records of
// its slots are compared, and those of other shards' slots must be absent.
func TestFileOfOneShard(t *testing.T) {
	t.Parallel()
	d := &dataset.Config{Count: 3000, KeyPrefix: "key", KeyStart: 1, Type: record.Hash, Members: dataset.Range{Min: 1, Max: 5}}
	even, _ := cluster.Even(3)
	dir := split(t, d, even, even, func(int, *manifest.Manifest) {})
	path := filepath.Join(dir, "shard-1.rdb")
	m, err := manifest.Read(manifest.PathFor(path))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: processOptions(t), Sample: 300})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Pass || rep.Server.Sampled < 50 || rep.Server.Absent < 150 || rep.Server.Keys != m.Keys {
		t.Fatalf("report: pass %v (%s), server %+v", rep.Pass, rep.Reason, rep.Server)
	}
}
