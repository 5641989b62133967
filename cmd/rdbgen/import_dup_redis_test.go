package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestImportDuplicatesOnOneLineLoad: two records of one key on one line, with --on-duplicate
// last, make a file with the key once, holding the second value, which Redis loads; with and
// without a cluster split.
func TestImportDuplicatesOnOneLineLoad(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "d.json")
	os.WriteFile(in, []byte(`[{"key":"a","value":"1"},{"key":"b","value":"x"},{"key":"a","value":"2"}]`), 0o644)
	for _, tt := range []struct {
		name string
		args []string
		file string
	}{
		{"file", []string{"-o", filepath.Join(dir, "d.rdb")}, filepath.Join(dir, "d.rdb")},
		{"cluster", []string{"--cluster-shards", "1", "-o", filepath.Join(dir, "dd")}, filepath.Join(dir, "dd", cluster.ShardFile(0))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"import", in, "--on-duplicate", "last", "-q"}, tt.args...)
			if _, _, err := run(t, context.Background(), args...); err != nil {
				t.Fatal(err)
			}
			inst := servertest.Start(t, tt.file)
			rdb := servertest.Client(t, inst.Addr, 0)
			ctx := context.Background()
			if n, err := rdb.DBSize(ctx).Result(); err != nil || n != 2 {
				t.Fatalf("DBSIZE = %d, %v", n, err)
			}
			if v, err := rdb.Get(ctx, "a").Result(); err != nil || v != "2" {
				t.Fatalf("GET a = %q, %v", v, err)
			}
		})
	}
}
