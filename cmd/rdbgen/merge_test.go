package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/merge"
)

// TestMergeShards splits an example spec's dataset (hashes, sets, strings with TTLs) into three shard files, merges
// them, and loads the merge and the unsplit file into redis-server 7.0: the same DEBUG
// DIGEST. A key in two inputs is an error naming both, unless --on-duplicate keeps one.
func TestMergeShards(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	whole, shards := filepath.Join(dir, "whole.rdb"), filepath.Join(dir, "shards")
	gen := []string{"--spec", "../../examples/spring-data-redis.yaml", "--count-scale", "0.01", "--base-time", "1767225600", "--target", "redis-7.0", "-q"}
	if _, stderr, err := run(t, ctx, append(gen, "-o", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, stderr, err := run(t, ctx, append(gen, "--cluster-shards", "3", "-o", shards+"/")...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	parts, _ := filepath.Glob(filepath.Join(shards, "shard-*.rdb"))
	if len(parts) != 3 {
		t.Fatalf("shard files %v", parts)
	}
	want, err := serverDigest(t, whole)
	if err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(dir, "merged.rdb")
	if _, stderr, err := run(t, ctx, append(append([]string{"merge"}, parts...), "-o", merged, "--target", "redis-7.0", "-q")...); err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	if got, err := serverDigest(t, merged); err != nil || got != want {
		t.Errorf("merged shards: digest %s (%v), want the unsplit file's %s", got, err, want)
	}
	m, err := manifest.Read(manifest.PathFor(merged))
	if err != nil {
		t.Fatal(err)
	}
	if m.Import == nil || strings.Join(m.Import.Inputs, " ") != strings.Join(parts, " ") {
		t.Errorf("manifest inputs %+v, want %v", m.Import, parts)
	}

	// The whole file and a shard: every key of the shard twice.
	dup := filepath.Join(dir, "dup.rdb")
	_, _, err = run(t, ctx, "merge", whole, parts[1], "-o", dup, "--target", "redis-7.0", "-q")
	if !errors.Is(err, merge.ErrDuplicateKey) || !strings.Contains(err.Error(), parts[1]) || !strings.Contains(err.Error(), whole) {
		t.Errorf("a key in two inputs: %v, want %v naming both files", err, merge.ErrDuplicateKey)
	}
	if _, err := os.Stat(dup); !os.IsNotExist(err) {
		t.Errorf("a failed merge left %s: %v", dup, err)
	}
	for _, on := range []string{"first", "last"} {
		if _, stderr, err := run(t, ctx, "merge", whole, parts[1], "-o", dup, "-f", "--on-duplicate", on, "--target", "redis-7.0", "-q"); err != nil {
			t.Fatalf("--on-duplicate %s: %v\n%s", on, err, stderr)
		}
		if got, err := serverDigest(t, dup); err != nil || got != want {
			t.Errorf("--on-duplicate %s: digest %s (%v), want %s", on, got, err, want)
		}
	}
}
