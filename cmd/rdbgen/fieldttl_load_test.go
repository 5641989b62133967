package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestDropFieldTTLOnServers: a hash whose fields expire, bound for redis-server 7.0 (the
// installed one) by load (each method) or --format resp, is an error naming --drop-field-ttl,
// which load takes; with it, the server holds what a server given the hash without the
// field TTLs holds, by DEBUG DIGEST (issue 34, item 17: load had no --drop-field-ttl, and
// --format resp took it and did nothing).
func TestDropFieldTTLOnServers(t *testing.T) {
	ctx := context.Background()
	dump := fieldTTLDump(t) // h: f1 v1, f2 v2 (expiring in 2100), f3 v3; k: v
	oracle := servertest.StartEmpty(t, "--enable-debug-command", "yes")
	if err := oracle.Client().HSet(ctx, "h", "f1", "v1", "f2", "v2", "f3", "v3").Err(); err != nil {
		t.Fatal(err)
	}
	if err := oracle.Client().Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	want := digest(t, oracle.Addr)
	for _, method := range []string{"pipeline", "restore", "mass"} {
		srv := servertest.StartEmpty(t, "--enable-debug-command", "yes")
		_, _, err := run(t, ctx, "load", dump, "--addr", srv.Addr, "--method", method, "-q")
		if err == nil || !strings.Contains(err.Error(), "--drop-field-ttl") || strings.Contains(err.Error(), "\n") {
			t.Errorf("load --method %s: %v; want a one-line error naming --drop-field-ttl", method, err)
		}
		srv = servertest.StartEmpty(t, "--enable-debug-command", "yes")
		if _, stderr, err := run(t, ctx, "load", dump, "--addr", srv.Addr, "--method", method, "--drop-field-ttl", "-q"); err != nil {
			t.Fatalf("load --method %s --drop-field-ttl: %v\n%s", method, err, stderr)
		}
		if got := digest(t, srv.Addr); got != want {
			t.Errorf("load --method %s --drop-field-ttl: digest %s, want %s", method, got, want)
		}
	}
	cmds := filepath.Join(t.TempDir(), "cmds.resp")
	if _, stderr, err := run(t, ctx, "convert", dump, "--format", "resp", "--target", "redis-7.0", "--drop-field-ttl", "-o", cmds, "-q"); err != nil {
		t.Fatalf("--format resp --drop-field-ttl: %v\n%s", err, stderr)
	}
	srv := servertest.StartEmpty(t, "--enable-debug-command", "yes")
	servertest.Pipe(t, srv.Addr, cmds)
	if got := digest(t, srv.Addr); got != want {
		t.Errorf("--format resp --drop-field-ttl: digest %s, want %s", got, want)
	}
}
