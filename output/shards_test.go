package output_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
	"github.com/rdbgen/rdbgen/spec"
)

// loadExample returns the example spec file name, scaled down, its TTLs counting from base.
func loadExample(t *testing.T, name string, base time.Time) *spec.Spec {
	t.Helper()
	in, err := input.Open(t.Context(), filepath.Join("..", "examples", name), input.Options{Format: input.Spec, BaseTime: base,
		SpecParams: func(p *spec.Params) { p.CountScale = 0.05 }})
	if err != nil {
		t.Fatal(err)
	}
	return in.Spec
}

// TestShardIsTheSplits writes each shard's file alone, one after the other into one
// directory as the pods of an Indexed Job do: the directory then holds the files and
// manifests of the whole split, byte for byte, which read back as one split; and each file
// loads into a real server with the keys its manifest counts.
func TestShardIsTheSplits(t *testing.T) {
	base := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	even4, _ := cluster.Even(4)
	even1, _ := cluster.Even(1)
	cases := []struct {
		name   string
		src    record.Source
		layout *cluster.Layout
	}{
		{"default dataset", &dataset.Config{Count: 50_000, KeyPrefix: "key", KeyStart: 100000001}, even4},
		{"ttl and hashes", &dataset.Config{Count: 20_000, KeyPrefix: "h:", KeyStart: 1, Type: record.Hash,
			Members: dataset.Range{Min: 1, Max: 20}, Seed: 4, TTL: time.Hour, BaseTimeMS: base.UnixMilli()}, even4},
		{"streams", &dataset.Config{Count: 2_000, KeyPrefix: "x:", KeyStart: 1, Type: record.Stream,
			Members: dataset.Range{Min: 1, Max: 5}, Seed: 5, BaseTimeMS: base.UnixMilli()}, even4},
		{"spec", loadExample(t, "spring-data-redis.yaml", base), even4},
		{"import", noCounts{sample[:3]}, even4},
		{"one shard", &dataset.Config{Count: 1000}, even1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := output.Options{Encoder: encoder.Options{CreatedAt: base}}
			split, pods := t.TempDir(), t.TempDir()
			out, err := output.Shards(split, tc.layout, opts)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := out.Write(t.Context(), tc.src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(whole.Shards) != tc.layout.Len() || whole.Path != split {
				t.Fatalf("result %+v", whole)
			}
			for i := range tc.layout.Len() {
				out, err := output.Shard(pods, tc.layout, i, opts)
				if err != nil {
					t.Fatal(err)
				}
				res, err := out.Write(t.Context(), tc.src, nil)
				if err != nil {
					t.Fatal(err)
				}
				want := filepath.Join(pods, cluster.ShardFile(i))
				if len(res.Shards) != 1 || res.Shards[0].Path != want || res.Shards[0].Index != i || res.Shards[0].Manifest != manifest.PathFor(want) ||
					res.Shards[0].Stats != whole.Shards[i].Stats || res.Stats.Keys != whole.Shards[i].Stats.Keys {
					t.Fatalf("shard %d: %+v, want %s alone, as the split's %+v", i, res, want, whole.Shards[i])
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
			set, err := manifest.ReadClusterSet(pods)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "import" || tc.name == "spec" {
				for i, sr := range whole.Shards {
					inst := servertest.Start(t, sr.Path)
					if n := uint64(inst.Client().DBSize(t.Context()).Val()); n != sr.Stats.Keys || n != set.Manifests[i].Keys {
						t.Errorf("shard %d: the server holds %d keys, the result says %d", i, n, sr.Stats.Keys)
					}
				}
			}
		})
	}
}

// TestShardLeavesOthersAlone: a pod writes its own file, with Force too, and never removes
// another's, nor the files beyond its layout that a whole split with Force removes; without
// Force its own existing file is an error, and an index out of range names the number of
// shards.
func TestShardLeavesOthersAlone(t *testing.T) {
	dir := t.TempDir()
	even3, _ := cluster.Even(3)
	for _, name := range []string{"shard-0.rdb", "shard-0.rdb.manifest.json", "shard-5.rdb", "shard-5.rdb.manifest.json", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := dirFiles(t, dir)
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
			opts := output.Options{Encoder: encoder.Options{CreatedAt: time.Unix(1800000000, 0)}, Force: tt.force}
			out, err := output.Shard(dir, even3, tt.index, opts)
			if err == nil {
				_, err = out.Write(t.Context(), &dataset.Config{Count: 3000}, nil)
			}
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("got %v, want %q", err, tt.want)
				}
				if tt.index == 0 && !errors.Is(err, output.ErrExists) {
					t.Fatalf("%v does not wrap output.ErrExists", err)
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

// TestShardsReplace: a split over an earlier, larger one needs Force, and then removes the
// files beyond its layout; a failed split leaves the earlier files as they were, and a
// directory it made is removed again.
func TestShardsReplace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "split")
	even2, _ := cluster.Even(2)
	even3, _ := cluster.Even(3)
	write := func(layout *cluster.Layout, opts output.Options, src record.Source) (*output.Result, error) {
		out, err := output.Shards(dir, layout, opts)
		if err != nil {
			return nil, err
		}
		return out.Write(t.Context(), src, nil)
	}
	if _, err := write(even3, output.Options{}, failAfter{1000, errors.New("broke")}); err == nil {
		t.Fatal("a failing source: no error")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the directory made for the failed split: %v", err)
	}
	if _, err := write(even3, output.Options{}, &dataset.Config{Count: 1000}); err != nil {
		t.Fatal(err)
	}
	before := dirFiles(t, dir)
	if _, err := write(even2, output.Options{}, &dataset.Config{Count: 10}); err == nil || !strings.Contains(err.Error(), "already holds shard files (shard-0.rdb, shard-1.rdb, shard-2.rdb): use --force") {
		t.Fatalf("got %v", err)
	}
	if _, err := write(even2, output.Options{Force: true}, failAfter{1000, errors.New("broke")}); err == nil {
		t.Fatal("a failing source: no error")
	}
	if now := dirFiles(t, dir); len(now) != len(before) {
		t.Fatalf("the failed split left %d files, want %d", len(now), len(before))
	}
	res, err := write(even2, output.Options{Force: true}, &dataset.Config{Count: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Removed) != 1 || filepath.Base(res.Removed[0]) != "shard-2.rdb" || len(dirFiles(t, dir)) != 4 {
		t.Fatalf("removed %q, the directory holds %d files", res.Removed, len(dirFiles(t, dir)))
	}
	if _, err := output.Shards(dir, even2, output.Options{RESP: &resp.Options{}}); !errors.Is(err, output.ErrRESPShards) {
		t.Fatalf("RESP shards: %v", err)
	}
}
