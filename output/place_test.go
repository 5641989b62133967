package output

import (
	"errors"
	"github.com/rdbgen/rdbgen/manifest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range es {
		n = append(n, e.Name())
	}
	return n
}

func testManifest() *manifest.Manifest {
	return newManifest(encoder.Options{CreatedAt: time.Unix(1700000000, 0)}, "redis-5.0", 9,
		encoder.Stats{Keys: 3, Expires: 1, Bytes: 50, Checksum: 0xab}, map[int]record.Counts{2: {Keys: 3, Expires: 1}, 4: {}})
}

func TestNew(t *testing.T) {
	m := testManifest()
	if m.Format != manifest.FormatVersion || !m.CreatedAt.Equal(time.Unix(1700000000, 0)) || m.CreatedAt.Location() != time.UTC ||
		m.Checksum != "00000000000000ab" || !m.Compressed || m.Keys != 3 || m.Expires != 1 || m.Bytes != 50 ||
		len(m.DBs) != 1 || m.DBs[2] != (record.Counts{Keys: 3, Expires: 1}) {
		t.Fatalf("%+v", m)
	}
}

func TestCreateFile(t *testing.T) {
	tests := []struct {
		name     string
		existing []string // files there before, holding "old"
		manifest string   // "" none; "sidecar": the output's own
		force    bool
		abort    bool
		wantErr  string // at Create
		want     []string
		wantData string // the output's content afterwards
	}{
		{name: "new, with its sidecar", manifest: "sidecar", want: []string{"dump.rdb", "dump.rdb.manifest.json"}, wantData: "new"},
		{name: "new, no manifest", want: []string{"dump.rdb"}, wantData: "new"},
		{name: "manifest elsewhere", manifest: "m.json", want: []string{"dump.rdb", "m.json"}, wantData: "new"},
		{name: "aborted", manifest: "sidecar", abort: true, want: nil},
		{name: "aborted over an old file", existing: []string{"dump.rdb"}, force: true, abort: true, want: []string{"dump.rdb"}, wantData: "old"},
		{name: "existing output", existing: []string{"dump.rdb"}, wantErr: "dump.rdb: file exists", want: []string{"dump.rdb"}, wantData: "old"},
		{name: "existing output, force", existing: []string{"dump.rdb", "dump.rdb.manifest.json"}, manifest: "sidecar", force: true,
			want: []string{"dump.rdb", "dump.rdb.manifest.json"}, wantData: "new"},
		{name: "existing manifest elsewhere", existing: []string{"m.json"}, manifest: "m.json", wantErr: "manifest: ", want: []string{"m.json"}},
		{name: "manifest is the output", manifest: "dump.rdb", wantErr: "is the output file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, e := range tt.existing {
				if err := os.WriteFile(filepath.Join(dir, e), []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(dir, "dump.rdb")
			mpath := tt.manifest
			switch mpath {
			case "":
			case "sidecar":
				mpath = manifest.PathFor(out)
			default:
				mpath = filepath.Join(dir, mpath)
			}
			f, err := createFile(out, mpath, tt.force)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want %q", err, tt.wantErr)
				}
				if strings.Contains(tt.wantErr, "exists") && !errors.Is(err, ErrExists) {
					t.Fatalf("%v is not ErrExists", err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.Write([]byte("new")); err != nil {
					t.Fatal(err)
				}
				if tt.abort {
					f.Abort()
				} else if err := f.Commit(testManifest()); err != nil {
					t.Fatal(err)
				}
				f.Abort() // after Commit: nothing
			}
			if got := names(t, dir); !slices.Equal(got, tt.want) {
				t.Fatalf("dir holds %v, want %v", got, tt.want)
			}
			if tt.wantData != "" {
				if b, _ := os.ReadFile(out); string(b) != tt.wantData {
					t.Fatalf("output holds %q, want %q", b, tt.wantData)
				}
			}
			if mpath != "" && tt.wantErr == "" && !tt.abort {
				if m, err := manifest.Read(mpath); err != nil || m.Keys != 3 {
					t.Fatalf("manifest %+v, %v", m, err)
				}
			}
		})
	}
}

func TestCreateShards(t *testing.T) {
	layout, _ := cluster.Even(2)
	write := func(t *testing.T, s *shardFiles) []*manifest.Manifest {
		var ms []*manifest.Manifest
		for _, w := range s.Writers() {
			if _, err := w.Write([]byte("new")); err != nil {
				t.Fatal(err)
			}
			ms = append(ms, testManifest())
		}
		return ms
	}
	t.Run("new directory", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out", "shards")
		s, err := createShards(dir, layout, false)
		if err != nil {
			t.Fatal(err)
		}
		removed, err := s.Commit(write(t, s))
		if err != nil || removed != nil {
			t.Fatal(removed, err)
		}
		want := []string{"shard-0.rdb", "shard-0.rdb.manifest.json", "shard-1.rdb", "shard-1.rdb.manifest.json"}
		if got := names(t, dir); !slices.Equal(got, want) {
			t.Fatalf("%v, want %v", got, want)
		}
	})
	t.Run("aborted, the directory made for it is removed", func(t *testing.T) {
		parent := t.TempDir()
		s, err := createShards(filepath.Join(parent, "shards"), layout, false)
		if err != nil {
			t.Fatal(err)
		}
		write(t, s)
		s.Abort()
		if got := names(t, parent); got != nil {
			t.Fatalf("left %v", got)
		}
	})
	t.Run("existing shards, then force over a larger split", func(t *testing.T) {
		dir := t.TempDir()
		for i := range 4 {
			p := filepath.Join(dir, cluster.ShardFile(i))
			os.WriteFile(p, []byte("old"), 0o644)
			os.WriteFile(manifest.PathFor(p), []byte("{}"), 0o644)
		}
		os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
		if _, err := createShards(dir, layout, false); err == nil || !strings.Contains(err.Error(), "already holds shard files (shard-0.rdb, shard-1.rdb, shard-2.rdb, ...): use --force") {
			t.Fatalf("without force: %v", err)
		}
		s, err := createShards(dir, layout, true)
		if err != nil {
			t.Fatal(err)
		}
		removed, err := s.Commit(nil) // no manifests: the old ones of shards 0 and 1 stay
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{filepath.Join(dir, "shard-2.rdb"), filepath.Join(dir, "shard-3.rdb")}; !slices.Equal(removed, want) {
			t.Fatalf("removed %v, want %v", removed, want)
		}
		want := []string{"notes.txt", "shard-0.rdb", "shard-0.rdb.manifest.json", "shard-1.rdb", "shard-1.rdb.manifest.json"}
		if got := names(t, dir); !slices.Equal(got, want) {
			t.Fatalf("%v, want %v", got, want)
		}
	})
	t.Run("a file where the directory goes", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "f")
		os.WriteFile(file, nil, 0o644)
		if _, err := createShards(file, layout, true); err == nil || !strings.Contains(err.Error(), "is a file") {
			t.Fatal(err)
		}
	})
	t.Run("wrong number of manifests", func(t *testing.T) {
		s, err := createShards(t.TempDir(), layout, false)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Abort()
		if _, err := s.Commit([]*manifest.Manifest{testManifest()}); err == nil {
			t.Fatal("1 manifest for 2 shards accepted")
		}
	})
}
