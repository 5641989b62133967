package rdbgen_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

// dirFiles returns the names and contents of the files in dir.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// TestWriteShardFileIsTheSplits writes each shard's file alone, one after the other into
// one directory as the pods of an Indexed Job do: the directory then holds the files and
// manifests of the whole split, byte for byte, and they read back as one split.
func TestWriteShardFileIsTheSplits(t *testing.T) {
	base := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	springs := loadExample(t, "spring-data-redis.yaml")
	p := springs.Params
	p.BaseTimeMS, p.CountScale = base.UnixMilli(), 0.05
	if err := springs.SetParams(p); err != nil {
		t.Fatal(err)
	}
	even4, _ := cluster.Even(4)
	even1, _ := cluster.Even(1)
	cases := []struct {
		name   string
		src    record.Source
		layout *cluster.Layout
	}{
		{"default dataset", classic(50_000), even4},
		{"ttl and hashes", &dataset.Spec{Count: 20_000, KeyPrefix: "h:", KeyStart: 1, Type: record.Hash,
			Members: dataset.Range{Min: 1, Max: 20}, Seed: 4, TTL: time.Hour, BaseTimeMS: base.UnixMilli()}, even4},
		{"random values", &dataset.Spec{Count: 30_000, KeyPrefix: "r:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 60,
			Seed: 9, TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base.UnixMilli()}, even4},
		{"streams", &dataset.Spec{Count: 2_000, KeyPrefix: "x:", KeyStart: 1, Type: record.Stream,
			Members: dataset.Range{Min: 1, Max: 5}, Seed: 5, BaseTimeMS: base.UnixMilli()}, even4},
		{"spec", springs, even4},
		{"one shard", classic(1000), even1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := rdbgen.FileOptions{Options: rdbgen.Options{Encoder: encoder.Options{CreatedAt: base}}}
			split, pods := t.TempDir(), t.TempDir()
			if _, err := rdbgen.WriteShardFiles(t.Context(), split, tc.src, tc.layout, opts); err != nil {
				t.Fatal(err)
			}
			for i := range tc.layout.Len() {
				res, err := rdbgen.WriteShardFile(t.Context(), pods, tc.src, tc.layout, i, opts)
				if err != nil {
					t.Fatal(err)
				}
				if want := filepath.Join(pods, cluster.ShardFile(i)); res.Paths[i] != want || len(slices.DeleteFunc(res.Paths, func(p string) bool { return p == "" })) != 1 {
					t.Fatalf("shard %d: paths %q, want %s alone", i, res.Paths, want)
				}
				for j, st := range res.Shards {
					if j != i && st != (encoder.Stats{}) || j == i && (st.Bytes == 0 || res.Total.Bytes != st.Bytes || res.Total.Keys != st.Keys) {
						t.Fatalf("shard %d: stats %+v, total %+v: want shard %d's alone", i, res.Shards, res.Total, i)
					}
				}
			}
			want, got := dirFiles(t, split), dirFiles(t, pods)
			if len(got) != 2*tc.layout.Len() || len(want) != len(got) {
				t.Fatalf("the pods wrote %d files, the split %d", len(got), len(want))
			}
			for name, b := range want {
				if !bytes.Equal(got[name], b) {
					t.Errorf("%s: %d bytes from its pod, %d from the split", name, len(got[name]), len(b))
				}
			}
			if _, err := manifest.ReadClusterSet(pods); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestWriteShardFileLeavesOthersAlone: a pod writes its own file, with Force too, and never
// removes another's, nor the files beyond its layout that a whole split with Force removes;
// without Force its own existing file is an error, and an index out of range names the
// number of shards.
func TestWriteShardFileLeavesOthersAlone(t *testing.T) {
	dir := t.TempDir()
	even3, _ := cluster.Even(3)
	for _, name := range []string{"shard-0.rdb", "shard-0.rdb.manifest.json", "shard-5.rdb", "shard-5.rdb.manifest.json", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := dirFiles(t, dir)
	opts := rdbgen.FileOptions{Options: rdbgen.Options{Encoder: encoder.Options{CreatedAt: time.Unix(1800000000, 0)}}}
	tests := []struct {
		name  string
		index int
		force bool
		want  string // the error; empty for none
		wrote string
	}{
		{"its own file exists", 0, false, "shard-0.rdb.manifest.json: file exists (use --force", ""},
		{"another shard", 1, false, "", "shard-1.rdb"},
		{"its own, with force", 0, true, "", "shard-0.rdb"},
		{"index out of range", 3, true, "shard index 3 out of range: the split has 3 shards (0 to 2)", ""},
		{"negative index", -1, true, "shard index -1 out of range: the split has 3 shards", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := opts
			o.Force = tt.force
			_, err := rdbgen.WriteShardFile(t.Context(), dir, classic(3000), even3, tt.index, o)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("got %v, want %q", err, tt.want)
				}
				if tt.index == 0 && !errors.Is(err, manifest.ErrExists) {
					t.Fatalf("%v does not wrap manifest.ErrExists", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			now := dirFiles(t, dir)
			for name, b := range before {
				if name != tt.wrote && name != tt.wrote+manifest.Suffix && !bytes.Equal(now[name], b) {
					t.Fatalf("%s changed or was removed", name)
				}
			}
			if bytes.Equal(now[tt.wrote], before[tt.wrote]) || now[tt.wrote+manifest.Suffix] == nil {
				t.Fatalf("%s and its manifest were not written", tt.wrote)
			}
		})
	}
}
