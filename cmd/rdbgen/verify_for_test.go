package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/miniotest"
	"github.com/rdbgen/rdbgen/internal/redistest"
)

// TestVerifyFor checks verify --for against each rule of the managed services, on files
// and on objects in a real MinIO: a file that breaks a rule fails naming the rule and the
// way out; one that keeps them passes (and the first loads into a real redis-server).
func TestVerifyFor(t *testing.T) {
	bin := redistest.RedisServer(t)
	minio := miniotest.Start(t)
	minio.MakeBucket("svc")
	dir := t.TempDir()
	gen := [][]string{
		{"-n", "50", "--target", "elasticache-redis-7.1", "-o", filepath.Join(dir, "ec71.rdb")},
		{"-n", "50", "--target", "elasticache-valkey-8.0", "-o", filepath.Join(dir, "ec80.rdb")},
		{"-n", "50", "--target", "redis-7.4", "-o", filepath.Join(dir, "v12.rdb")},
		{"-n", "50", "--target", "redis-7.4", "-o", "s3://svc/v12.rdb"},
		{"-n", "50", "--target", "elasticache-valkey-8.0", "-o", "s3://svc/ok.rdb"},
		{"-n", "50", "--target", "valkey-8.0", "-o", "s3://svc/a,b.rdb"},
		{"-n", "50", "--db", "0", "-o", filepath.Join(dir, "d0.rdb")},
		{"-n", "50", "--db", "1", "-o", filepath.Join(dir, "d1.rdb")},
		{"-n", "50", "--target", "redis-cloud", "-o", filepath.Join(dir, "cloud.rdb.gz")},
		{"-n", "50", "--target", "redis-7.2", "-o", filepath.Join(dir, "mem.dump")},
	}
	shards := filepath.Join(t.TempDir(), "shards")
	gen = append(gen, []string{"-n", "300", "--cluster-shards", "3", "--target", "elasticache-valkey-8.0", "-o", shards + "/"})
	for _, args := range gen {
		if _, stderr, err := run(t, t.Context(), append([]string{"generate", "-q"}, args...)...); err != nil {
			t.Fatalf("generate %v: %v\n%s", args, err, stderr)
		}
	}
	two := filepath.Join(dir, "two.rdb")
	if _, stderr, err := run(t, t.Context(), "merge", "-q", "-o", two, filepath.Join(dir, "d0.rdb"), filepath.Join(dir, "d1.rdb")); err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	for _, tc := range []struct {
		name, target, file string
		want               []string // in the error; none: the file passes
	}{
		{"passes and loads", "elasticache-redis-7.1", filepath.Join(dir, "ec71.rdb"), nil},
		{"object passes", "elasticache-valkey-8.0", "s3://svc/ok.rdb", nil},
		{"gzip accepted", "redis-cloud", filepath.Join(dir, "cloud.rdb.gz"), nil},
		{"rdb too new", "elasticache-valkey-8.0", filepath.Join(dir, "v12.rdb"), []string{"rdb version", "the file is RDB 12", "loads RDB 11 or older", "convert --target elasticache-valkey-8.0"}},
		{"rdb too new for 7.1", "elasticache-redis-7.1", filepath.Join(dir, "ec80.rdb"), []string{"the file is RDB 11", "loads RDB 10 or older", "convert --target elasticache-redis-7.1"}},
		{"object rdb too new", "elasticache-valkey-7.2", "s3://svc/v12.rdb", []string{"the file is RDB 12", "convert --target elasticache-valkey-7.2"}},
		{"two dbs", "elasticache-valkey-8.0", two, []string{"databases", "keys in db 0 and db 1", "convert --db 0"}},
		{"two dbs elsewhere", "redis-cloud", two, nil},
		{"comma in the object name", "elasticache-valkey-8.0", "s3://svc/a,b.rdb", []string{"object name", "may not hold a comma", "rename s3://svc/a,b.rdb"}},
		{"gzip not accepted", "elasticache-valkey-8.0", filepath.Join(dir, "cloud.rdb.gz"), []string{"object name", "takes no gzip-compressed file", "without .gz"}},
		{"name not .rdb", "memorystore-redis-7.2", filepath.Join(dir, "mem.dump"), []string{"object name", "ends in .rdb", "rename"}},
		{"cluster passes", "elasticache-valkey-8.0", shards, nil},
		{"cluster rdb too new", "elasticache-redis-7.1", shards, []string{"shard-0.rdb: rdb version", "the file is RDB 11", "(and 2 more)"}},
		{"unknown service", "redis-7.2", filepath.Join(dir, "ec71.rdb"), []string{"--for redis-7.2: no managed service", "elasticache-valkey-8.0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"verify", "--for", tc.target, tc.file}
			if tc.file == shards {
				args = append(args, "--cluster")
			}
			if tc.name == "passes and loads" {
				args = append(args, "--backend", "process", "--redis-server", bin)
			} else {
				args = append(args, "--backend", "offline")
			}
			stdout, stderr, err := run(t, t.Context(), args...)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("%v\n%s%s", err, stdout, stderr)
				}
				if tc.name == "passes and loads" && !strings.Contains(stdout, "loaded in") {
					t.Fatalf("the file was not loaded:\n%s", stdout)
				}
				return
			}
			if err == nil {
				t.Fatalf("verify --for %s %s passed; want a failure naming %q\n%s", tc.target, tc.file, tc.want, stdout)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") {
				t.Errorf("the error is not one line: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error %q does not name %q", err, w)
				}
			}
		})
	}
	// Nothing was written by verify: only the files generated and merged are there.
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 16 {
		t.Fatalf("%d entries in %s (%v), want the 8 files and their manifests", len(ents), dir, err)
	}
}
