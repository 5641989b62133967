package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestLoadSkipUnsupported: load takes --skip-unsupported, as convert, import and merge do. A
// hash whose fields expire, bound for redis-server 7.0 (the installed one), is an error
// naming both ways out; with --skip-unsupported it is left out and counted (the summary,
// --json), the server holds the rest (DEBUG DIGEST of a server given the rest by hand),
// and the manifest written passes verify against the server.
func TestLoadSkipUnsupported(t *testing.T) {
	ctx := context.Background()
	dump := fieldTTLDump(t) // h: f1 v1, f2 v2 (expiring in 2100), f3 v3; k: v
	oracle := servertest.StartEmpty(t, "--enable-debug-command", "yes")
	if err := oracle.Client().Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	want := digest(t, oracle.Addr)
	for _, method := range []string{"pipeline", "restore", "mass"} {
		t.Run(method, func(t *testing.T) {
			srv := servertest.StartEmpty(t, "--enable-debug-command", "yes")
			_, _, err := run(t, ctx, "load", dump, "--addr", srv.Addr, "--method", method, "-q")
			if err == nil || !strings.Contains(err.Error(), "--skip-unsupported") || !strings.Contains(err.Error(), "--drop-field-ttl") {
				t.Errorf("load --method %s: %v; want an error naming --drop-field-ttl and --skip-unsupported", method, err)
			}
			srv = servertest.StartEmpty(t, "--enable-debug-command", "yes")
			m := filepath.Join(t.TempDir(), "manifest.json")
			stdout, stderr, err := run(t, ctx, "load", dump, "--addr", srv.Addr, "--method", method, "--skip-unsupported", "--manifest", m)
			if err != nil {
				t.Fatalf("load --skip-unsupported: %v\n%s", err, stderr)
			}
			if text := stdout + stderr; !strings.Contains(text, "loaded 1 keys") || !strings.Contains(text, "left out 1 keys the server cannot hold (--skip-unsupported)") {
				t.Errorf("summary %q: want 1 key loaded, 1 left out", text)
			}
			if got := digest(t, srv.Addr); got != want {
				t.Errorf("load --skip-unsupported: digest %s, want %s", got, want)
			}
			if out, stderr, err := run(t, ctx, "verify", "--addr", srv.Addr, "--manifest", m); err != nil {
				t.Errorf("verify of the manifest: %v\n%s%s", err, out, stderr)
			}
			srv = servertest.StartEmpty(t)
			stdout, stderr, err = run(t, ctx, "load", dump, "--addr", srv.Addr, "--method", method, "--skip-unsupported", "--json")
			if err != nil {
				t.Fatalf("load --skip-unsupported --json: %v\n%s", err, stderr)
			}
			var sum struct{ Keys, Unsupported uint64 }
			if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Keys != 1 || sum.Unsupported != 1 {
				t.Errorf("--json %s (%v): want keys 1, unsupported 1", stdout, err)
			}
		})
	}
}
