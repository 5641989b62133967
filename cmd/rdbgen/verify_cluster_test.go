package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/verify"
)

// splitWith runs rdbgen with args into a new directory of shard files and returns it.
func splitWith(t *testing.T, args ...string) string {
	t.Helper()
	return generateInto(t, "dumps", args...)
}

// TestVerifyCluster verifies a generated dataset split by the uneven layout of a running
// cluster, and a split spec file, each in a cluster of local redis-servers.
func TestVerifyCluster(t *testing.T) {
	layouts, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "layouts"))
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples"))
	cases := map[string][]string{
		"slots-from": {"--count", "5000", "--slots-from", filepath.Join(layouts, "uneven.shards.json"), "--ttl", "1h", "--value", "random"},
		"spec":       {"--spec", filepath.Join(examples, "spring-data-redis.yaml"), "--count-scale", "0.05", "--cluster-shards", "3", "--target", "redis-7.0"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := splitWith(t, args...)
			stdout, _, err := run(t, context.Background(), append([]string{"verify", "--cluster", dir, "--sample", "300"}, process(t)...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			for _, want := range []string{"files     " + dir + ": 3 shard files, ", "checksums ok", "cluster   3 process nodes: loaded in ",
				"shard-0.rdb  127.0.0.1:", "sampled keys checked through the cluster", "\nPASS\n"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("report lacks %q:\n%s", want, stdout)
				}
			}
			if name == "slots-from" && !strings.Contains(stdout, "slots 0-999,10000-16383: ") {
				t.Errorf("report lacks the uneven ranges:\n%s", stdout)
			}
		})
	}
}

func TestVerifyClusterJSONAndFail(t *testing.T) {
	dir := splitWith(t, "--count", "2000", "--cluster-shards", "2")
	stdout, _, err := run(t, context.Background(), "verify", "--cluster", dir, "--backend", "offline", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep verify.ClusterReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || !rep.Pass || len(rep.Files) != 2 || rep.Files[1].Keys == 0 {
		t.Fatalf("report %+v, %v", rep, err)
	}
	path := filepath.Join(dir, "shard-0.rdb")
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 1
	os.WriteFile(path, b, 0o644)
	stdout, _, err = run(t, context.Background(), append([]string{"verify", "--cluster", dir}, process(t)...)...)
	if err == nil || !strings.HasPrefix(err.Error(), "FAIL: file: shard-0.rdb: checksum: ") || !strings.Contains(stdout, "FAIL: 1 mismatch") {
		t.Fatalf("a flipped byte: %v\n%s", err, stdout)
	}
}

func TestVerifyClusterBadInput(t *testing.T) {
	dir := splitWith(t, "--count", "10", "--cluster-shards", "2")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no directory", []string{"--cluster"}, "--cluster needs the directory of the shard files"},
		{"two", []string{"--cluster", dir, dir}, "verify --cluster takes one directory"},
		{"manifest", []string{"--cluster", dir, "--manifest", "m.json"}, "--manifest does not go with --cluster"},
		{"addr", []string{"--cluster", dir, "--addr", "127.0.0.1:1"}, "--addr does not go with --cluster"},
		{"not shards", []string{"--cluster", "."}, ". holds no shard files"},
		{"bad backend", []string{"--cluster", dir, "--backend", "vm"}, `unknown backend "vm"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkBadInput(t, append([]string{"verify"}, tt.args...), tt.want) })
	}
}
