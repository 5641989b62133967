package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestLoadValueOverProtoMaxBulkLen loads a 3 MB string into a server that takes arguments
// of 1 MB at most, by every method: each stops with one line naming the key and the bound,
// before sending it, instead of the server closing the connection; into a cluster, naming
// the key's primary, whose limit it is (not the seed --addr names).
func TestLoadValueOverProtoMaxBulkLen(t *testing.T) {
	ctx := context.Background()
	dump := bigStringDump(t)
	srv := servertest.StartEmpty(t, "--proto-max-bulk-len", "1mb")
	for _, method := range []string{"sequential", "pipeline", "mass", "restore"} {
		_, _, err := run(t, ctx, "load", "--addr", srv.Addr, "--method", method, dump)
		want := `write key "big": argument over the server's proto-max-bulk-len: a value of 3145728 bytes, and the server takes 1048576 (raise it: CONFIG SET proto-max-bulk-len 3145728)`
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line saying %s", method, err, want)
		}
	}
	if n := srv.Client().DBSize(ctx).Val(); n != 0 {
		t.Errorf("the server holds %d keys", n)
	}

	// In a cluster the limit is the key's primary's, which the error names: the seed's
	// CONFIG SET would not help.
	c, layout := servertest.StartCluster(t)
	at := layout.Owner(cluster.Slot([]byte("big")))
	owner, seed := c.Nodes[at], c.Nodes[(at+1)%len(c.Nodes)]
	if err := owner.Client().ConfigSet(ctx, "proto-max-bulk-len", "1mb").Err(); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"sequential", "pipeline", "mass", "restore"} {
		_, _, err := run(t, ctx, "load", "--cluster", "--addr", seed.Addr, "--method", method, dump)
		want := "primary " + owner.Addr + `: write key "big": argument over the server's proto-max-bulk-len`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--cluster %s: %v; want %s", method, err, want)
		}
	}
}

// TestLoadValueOverUnknownProtoMaxBulkLen: the same 3 MB string, loaded by an ACL user who
// may not run CONFIG GET, so that the server's bound is unknown: each method stops with one
// line naming the key, its size, that the bound is unknown and how to learn it, instead of
// the server's "connection reset by peer".
func TestLoadValueOverUnknownProtoMaxBulkLen(t *testing.T) {
	ctx := context.Background()
	dump := bigStringDump(t)
	srv := servertest.StartEmpty(t, "--proto-max-bulk-len", "1mb")
	if err := srv.Client().Do(ctx, "ACL", "SETUSER", "loader", "on", ">pw", "~*", "+@all", "-config").Err(); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"sequential", "pipeline", "mass", "restore"} {
		_, _, err := run(t, ctx, "load", "--url", "redis://loader:pw@"+srv.Addr, "--method", method, dump)
		for _, want := range []string{`key "big"`, "bytes (its value or RESTORE payload), over 1 MiB", "proto-max-bulk-len is unknown", "CONFIG GET proto-max-bulk-len"} {
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v; want one line saying %s", method, err, want)
			}
		}
	}
	if n := srv.Client().DBSize(ctx).Val(); n != 0 {
		t.Errorf("the server holds %d keys", n)
	}
}

// bigStringDump writes a dump of one 3 MB string, "big", and returns its path.
func bigStringDump(t *testing.T) string {
	dir := t.TempDir()
	in := filepath.Join(dir, "big.jsonl")
	if err := os.WriteFile(in, []byte(`{"key":"big","type":"string","value":"`+strings.Repeat("x", 3<<20)+"\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "big.rdb")
	if _, stderr, err := run(t, context.Background(), "import", in, "-o", dump, "-q"); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	return dump
}
