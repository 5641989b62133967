package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/record"
)

// writeSet writes the shard files and manifests of an even split into n shards in a new
// directory, after change has modified each manifest.
func writeSet(t *testing.T, n int, change func(i int, m *Manifest)) string {
	t.Helper()
	dir := t.TempDir()
	layout, err := cluster.Even(n)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 30, 9, 0, 0, 123e6, time.UTC)
	for i := range n {
		path := filepath.Join(dir, cluster.ShardFile(i))
		if err := os.WriteFile(path, []byte("REDIS0009"), 0o644); err != nil {
			t.Fatal(err)
		}
		m := &Manifest{Format: FormatVersion, CreatedAt: at, Target: "redis-5.0", RDBVersion: 9, DBs: map[int]record.Counts{},
			Dataset: &dataset.Config{Count: 100, KeyPrefix: "k"},
			Cluster: &Shard{Index: i, Shards: n, Slots: layout.Shard(i).Ranges}}
		change(i, m)
		if err := Write(PathFor(path), m); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadClusterSet(t *testing.T) {
	set, err := ReadClusterSet(writeSet(t, 3, func(int, *Manifest) {}))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Files) != 3 || set.Layout.Len() != 3 || set.Layout.Shard(2).RangesString() != "10923-16383" || set.Manifests[1].Cluster.Index != 1 {
		t.Fatalf("set %+v", set)
	}
}

func TestReadClusterSetErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(i int, m *Manifest)
		want   string
	}{
		{"no cluster section", func(i int, m *Manifest) {
			if i == 1 {
				m.Cluster = nil
			}
		}, "shard-1.rdb: not a shard of a cluster dataset"},
		{"wrong index", func(i int, m *Manifest) {
			if i == 2 {
				m.Cluster.Index = 0
			}
		}, "shard-2.rdb: its manifest says shard 0 of 3, but the directory holds 3 shard files"},
		{"more shards", func(i int, m *Manifest) { m.Cluster.Shards = 4 }, "says shard 0 of 4"},
		{"another run", func(i int, m *Manifest) { m.CreatedAt = m.CreatedAt.Add(time.Duration(i) * time.Second) },
			"shard-0.rdb and shard-1.rdb are not shards of one split: written at 2026-11-30T09:00:00.123Z and 2026-11-30T09:00:01.123Z"},
		{"another target", func(i int, m *Manifest) {
			if i == 2 {
				m.Target, m.RDBVersion = "redis-7.0", 10
			}
		}, "written for redis-5.0 (RDB 9) and redis-7.0 (RDB 10)"},
		{"other records", func(i int, m *Manifest) { m.Dataset.Count += uint64(i) }, "they describe different records"},
		{"overlap", func(i int, m *Manifest) { m.Cluster.Slots[0].First = 0 }, "slot 0 is owned by shard 0 and shard 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadClusterSet(writeSet(t, 3, tt.change))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
	dir := writeSet(t, 2, func(int, *Manifest) {})
	os.Remove(PathFor(filepath.Join(dir, "shard-1.rdb")))
	if _, err := ReadClusterSet(dir); err == nil || !strings.Contains(err.Error(), "shard-1.rdb.manifest.json: no such file") {
		t.Fatalf("missing manifest: %v", err)
	}
	if _, err := ReadClusterSet(t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no shard files") {
		t.Fatalf("empty directory: %v", err)
	}
}
