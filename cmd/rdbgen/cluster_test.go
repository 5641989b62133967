package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/manifest"
)

func TestGenerateClusterShards(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "dumps")
	stdout, stderr, err := run(t, context.Background(), "--count", "3000", "--cluster-shards", "3", "-o", dir, "--json", "--ttl", "1h")
	if err != nil {
		t.Fatal(err)
	}
	var sum summary.Write
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if stderr != "" || sum.Keys != 3000 || sum.Expires != 3000 || len(sum.Shards) != 3 || sum.RDBVersion != 9 {
		t.Fatalf("summary %+v, stderr %q", sum, stderr)
	}
	even, _ := cluster.Even(3)
	var keys uint64
	for i, s := range sum.Shards {
		if s.File != filepath.Join(dir, cluster.ShardFile(i)) {
			t.Errorf("shard %d file %s", i, s.File)
		}
		m, err := manifest.Read(s.Manifest)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(s.File)
		if err != nil {
			t.Fatal(err)
		}
		want := even.Shard(i).RangesString()
		if c := m.Cluster; c == nil || c.Index != i || c.Shards != 3 || (cluster.Shard{Ranges: c.Slots}).RangesString() != want {
			t.Fatalf("shard %d manifest cluster %+v, want slots %s", i, m.Cluster, want)
		}
		if m.Keys != s.Keys || m.Expires != s.Keys || m.DBs[0].Keys != s.Keys || m.Bytes != fi.Size() || m.Dataset.Count != 3000 {
			t.Fatalf("shard %d manifest %+v, summary %+v", i, m, s)
		}
		keys += m.Keys
	}
	if keys != 3000 {
		t.Fatalf("manifests count %d keys", keys)
	}
	if got := dirEntries(t, dir); len(got) != 6 {
		t.Fatalf("directory holds %v", got)
	}
}

func TestGenerateClusterSlotsFrom(t *testing.T) {
	layouts := filepath.Join("..", "..", "testdata", "layouts")
	dir := t.TempDir()
	stdout, _, err := run(t, context.Background(), "--count", "2000", "--slots-from", filepath.Join(layouts, "uneven.nodes.conf"), "--cluster-shards", "3", "-o", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"wrote 2000 keys (0 with TTL) in 3 shards to " + dir,
		"shard-0.rdb  slots 0-999,10000-16383 (127.0.0.1:30011): ",
		"shard-1.rdb  slots 1000-1998 (127.0.0.1:30012): ",
		"shard-2.rdb  slots 1999-9999 (127.0.0.1:30013): ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	m, err := manifest.Read(filepath.Join(dir, "shard-2.rdb.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Cluster.NodeID != "283fee1c3c6094d7787358137b904ae099352e21" || m.Cluster.Addr != "127.0.0.1:30013" {
		t.Fatalf("manifest %+v", m.Cluster)
	}
}

// TestGenerateClusterForce replaces a 4-shard split by a 2-shard one: the files of shards 2
// and 3 go with the set they belonged to.
func TestGenerateClusterForce(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := run(t, context.Background(), "--count", "100", "--cluster-shards", "4", "-o", dir, "-q"); err != nil {
		t.Fatal(err)
	}
	_, _, err := run(t, context.Background(), "--count", "100", "--cluster-shards", "2", "-o", dir)
	if err == nil || !strings.Contains(err.Error(), dir+" already holds shard files (shard-0.rdb, shard-1.rdb, shard-2.rdb, ...): use --force") {
		t.Fatalf("without --force: %v", err)
	}
	stdout, _, err := run(t, context.Background(), "--count", "100", "--cluster-shards", "2", "-o", dir, "--force")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "removed "+filepath.Join(dir, "shard-3.rdb")+", left from an earlier split") {
		t.Fatalf("summary %s", stdout)
	}
	if got := dirEntries(t, dir); len(got) != 4 || got[0] != "shard-0.rdb" || got[2] != "shard-1.rdb" {
		t.Fatalf("directory holds %v", got)
	}
}

func TestGenerateClusterBadInput(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	garbage := filepath.Join(tmp, "garbage.txt")
	os.WriteFile(garbage, []byte("cluster_state:ok\n"), 0o644)
	layouts, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "layouts"))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"db", []string{"--cluster-shards", "3", "-o", "d", "--db", "3"}, "--db 3: a cluster node holds db 0 only"},
		{"no output", []string{"--cluster-shards", "3"}, "--cluster-shards writes one file per shard into a directory: name it with -o DIR"},
		{"stdout", []string{"--cluster-shards", "3", "-o", "-"}, "-o - (stdout) cannot hold them"},
		{"manifest", []string{"--slots-from", "x", "-o", "d", "--manifest", "m.json"}, "--manifest does not go with --slots-from"},
		{"zero shards", []string{"--cluster-shards", "0", "-o", "d"}, "--cluster-shards 0 out of range (1 to 1000)"},
		{"too many", []string{"--cluster-shards", "1001", "-o", "d"}, "--cluster-shards 1001 out of range"},
		{"missing layout", []string{"--slots-from", "nope.txt", "-o", "d"}, "--slots-from: open nope.txt: no such file"},
		{"empty layout name", []string{"--slots-from", "", "-o", "d"}, `--slots-from "": an empty value is not allowed`},
		{"bad layout", []string{"--slots-from", garbage, "-o", "d"}, "--slots-from " + garbage + ": invalid slot layout: line 1: 1 fields"},
		{"count disagrees", []string{"--slots-from", filepath.Join(layouts, "replicas.nodes.txt"), "--cluster-shards", "4", "-o", "d"}, "--cluster-shards 4, but"},
		{"output is a file", []string{"--cluster-shards", "2", "-o", file}, "-o " + file + " is a file: a cluster split needs a directory"},
		{"bad target", []string{"--cluster-shards", "2", "-o", "d", "--target", "redis-1"}, `unknown target "redis-1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkBadInput(t, append([]string{"--count", "10"}, tt.args...), tt.want) })
	}
}

func TestGenerateClusterCancelledLeavesNothing(t *testing.T) {
	parent := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := run(t, ctx, "--count", "1000000", "--cluster-shards", "3", "-o", filepath.Join(parent, "dumps"))
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("got %v", err)
	}
	if got := dirEntries(t, parent); len(got) != 0 {
		t.Fatalf("a cancelled run left %v", got)
	}
}

// TestClusterSpecAndImport splits a spec file and an import: each shard's manifest holds
// the spec or the import, and its own counts.
func TestClusterSpecAndImport(t *testing.T) {
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples"))
	dir := t.TempDir()
	stdout, _, err := run(t, context.Background(), "--spec", filepath.Join(examples, "spring-data-redis.yaml"), "--count-scale", "0.01",
		"--cluster-shards", "3", "-o", filepath.Join(dir, "spec"), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var sum summary.Write
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Keys != 201 || len(sum.Shards) != 3 || sum.Members == 0 {
		t.Fatalf("summary %+v, %v", sum, err)
	}
	m, err := manifest.Read(sum.Shards[1].Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if m.Spec == nil || !strings.Contains(m.Spec.YAML, "refresh-token") || m.Cluster.Index != 1 || m.Keys != sum.Shards[1].Keys {
		t.Fatalf("manifest %+v", m)
	}

	input := filepath.Join(dir, "in.jsonl")
	os.WriteFile(input, []byte(`{"db":0,"key":"foo","type":"string","value":"1"}`+"\n"+`{"db":0,"key":"bar","type":"set","members":["a"]}`+"\n"), 0o644)
	stdout, _, err = run(t, context.Background(), "import", input, "--cluster-shards", "2", "-o", filepath.Join(dir, "import"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wrote 2 keys (0 with TTL, 1 members) in 2 shards", "shard-0.rdb  slots 0-8191: 1 keys", "shard-1.rdb  slots 8192-16383: 1 keys"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("summary lacks %q:\n%s", want, stdout)
		}
	}
	m, err = manifest.Read(filepath.Join(dir, "import", "shard-1.rdb.manifest.json"))
	if err != nil || m.Import == nil || m.Import.Format != "json" || m.Keys != 1 {
		t.Fatalf("manifest %+v, %v", m, err)
	}
}

func TestClusterSpecAndImportBadInput(t *testing.T) {
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples"))
	in := filepath.Join(t.TempDir(), "in.jsonl")
	os.WriteFile(in, []byte(`{"db":0,"key":"a","type":"string","value":"1"}`+"\n"+`{"db":4,"key":"b","type":"string","value":"1"}`+"\n"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"spec in db 1", []string{"--spec", filepath.Join(examples, "sessions.yaml"), "--cluster-shards", "3", "-o", "d"}, "family sessions is in db 1: a cluster node holds db 0 only"},
		{"import in db 4", []string{"import", in, "--cluster-shards", "3", "-o", "d"}, "a cluster node holds db 0 only: records of db 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkBadInput(t, tt.args, tt.want) })
	}
}

// TestClusterImportStdinLast imports stdin keeping the last of duplicate keys, which spools
// stdin beside the split's directory, a directory that does not exist yet.
func TestClusterImportStdinLast(t *testing.T) {
	parent := t.TempDir()
	in := `{"db":0,"key":"foo","type":"string","value":"1"}` + "\n" + `{"db":0,"key":"foo","type":"string","value":"2"}` + "\n"
	out := filepath.Join(parent, "new", "dumps") + "/"
	if _, _, err := runStdin(t, []byte(in), "import", "-", "--on-duplicate", "last", "--cluster-shards", "2", "-o", out, "-q"); err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Read(filepath.Join(out, "shard-1.rdb.manifest.json")) // foo: slot 12182
	if err != nil || m.Keys != 1 || m.Import.Duplicates != 1 {
		t.Fatalf("manifest %+v, %v", m, err)
	}
	if got := dirEntries(t, filepath.Join(parent, "new")); len(got) != 1 {
		t.Fatalf("the spooled stdin was left: %v", got)
	}
}

// failingWriter fails every write, like a stdout whose disk is full.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestClusterSummaryWriteError checks that a summary that cannot be written fails the run,
// as generate's does.
func TestClusterSummaryWriteError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	err := cliflags.Run(context.Background(), newApp(failingWriter{}, io.Discard), []string{"rdbgen", "--count", "10", "--cluster-shards", "2", "-o", dir})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got %v, want the write error", err)
	}
}
