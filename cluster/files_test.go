package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShardFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"shard-0.rdb", "shard-1.rdb", "shard-10.rdb", "shard-01.rdb", "shard-.rdb", "shard-x.rdb",
		"shard-2.rdb.manifest.json", "dump.rdb", ".shard-3.rdb.tmp-1", "4.rdb", "shard-5"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := ShardFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 || files[0] != filepath.Join(dir, "shard-0.rdb") || files[10] == "" || files[1] == "" {
		t.Fatalf("ShardFiles = %v", files)
	}
	if _, err := ShardPaths(dir); err == nil || !strings.Contains(err.Error(), "shard-2.rdb is missing (the directory holds shard-10.rdb)") {
		t.Fatalf("ShardPaths with a gap: %v", err)
	}
	os.Remove(filepath.Join(dir, "shard-10.rdb"))
	paths, err := ShardPaths(dir)
	if err != nil || len(paths) != 2 || filepath.Base(paths[1]) != "shard-1.rdb" {
		t.Fatalf("ShardPaths = %v, %v", paths, err)
	}
	if _, err := ShardPaths(t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no shard files") {
		t.Fatalf("empty dir: %v", err)
	}
	if _, err := ShardFiles(filepath.Join(dir, "nope")); err == nil || !strings.Contains(err.Error(), "nope: no such file") {
		t.Fatalf("missing dir: %v", err)
	}
}
