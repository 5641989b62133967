package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/importer"
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

// TestImportLongListLoads: a list long enough to be written from the input (past
// importer.StreamListsOver elements) loads in Redis whole and in order.
func TestImportLongListLoads(t *testing.T) {
	dir := t.TempDir()
	n := importer.StreamListsOver * 2
	var b strings.Builder
	b.WriteString(`[{"key":"s","value":"x"},{"key":"l","values":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"e%d"`, i)
	}
	b.WriteString("]}]")
	in := filepath.Join(dir, "l.json")
	os.WriteFile(in, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "l.rdb")
	if _, _, err := run(t, context.Background(), "import", in, "-o", out, "-q", "--target", "redis-7.0"); err != nil {
		t.Fatal(err)
	}
	inst := servertest.Start(t, out)
	rdb := servertest.Client(t, inst.Addr, 0)
	ctx := context.Background()
	if l, err := rdb.LLen(ctx, "l").Result(); err != nil || l != int64(n) {
		t.Fatalf("LLEN = %d, %v", l, err)
	}
	for _, i := range []int64{0, int64(n) / 2, int64(n) - 1} {
		if v, err := rdb.LIndex(ctx, "l", i).Result(); err != nil || v != fmt.Sprint("e", i) {
			t.Fatalf("LINDEX %d = %q, %v", i, v, err)
		}
	}
}
