package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/server"
)

// serviceServers are the servers that run here for the managed services' targets: the
// Debian redis-server (7.0) for RDB 10, hand-built ones (absent in CI) for RDB 11.
var serviceServers = map[string]string{
	"elasticache-redis-7.1":  "",
	"elasticache-valkey-7.2": "/opt/redis-versions/valkey-8.0.1/valkey-server",
	"elasticache-valkey-8.0": "/opt/redis-versions/valkey-8.0.1/valkey-server",
	"memorystore-redis-7.2":  "/opt/redis-versions/redis-7.2.6/redis-server",
	"redis-cloud":            "/opt/redis-versions/redis-7.2.6/redis-server",
}

// TestServiceTargetsLoad writes a dump that redis-server wrote for each managed service's
// target and loads it on the version of the service's server that runs here: the DEBUG
// DIGEST is the original's.
func TestServiceTargetsLoad(t *testing.T) {
	local := filepath.Join(conformanceDumps, "types.rdb")
	want := digest(t, servertest.Start(t, local, "--enable-debug-command", "yes").Addr)
	for target, bin := range serviceServers {
		t.Run(target, func(t *testing.T) {
			if bin == "" {
				bin = redistest.RedisServer(t)
			} else if _, err := os.Stat(bin); err != nil {
				t.Skipf("%s is not built here (no such server in CI)", bin)
			}
			out := filepath.Join(t.TempDir(), "seed.rdb")
			if _, stderr, err := run(t, t.Context(), "convert", "-q", "--target", target, "--db", "0", local, "-o", out); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			inst := startWith(t, bin, out)
			got, err := inst.Client().Do(t.Context(), "DEBUG", "DIGEST").Text()
			if err != nil {
				t.Fatal(err)
			}
			// db 0 alone: compare with the original's db 0.
			if wantDB0 := digestDB0(t, local); got != wantDB0 {
				t.Fatalf("%s loads the file with DEBUG DIGEST %s, want %s (db 0 of the original, whose whole digest is %s)", bin, got, wantDB0, want)
			}
		})
	}
}

// digestDB0 returns the DEBUG DIGEST of db 0 of the dump at path alone.
func digestDB0(t *testing.T, path string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "db0.rdb")
	if _, stderr, err := run(t, t.Context(), "convert", "-q", "--target", "redis-7.0", "--db", "0", path, "-o", out); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	return digest(t, servertest.Start(t, out, "--enable-debug-command", "yes").Addr)
}

// startWith starts the redis-server bin on the file at path.
func startWith(t *testing.T, bin, path string) *server.Instance {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: bin, Args: []string{"--enable-debug-command", "yes"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	return inst
}

// TestServiceRulesRefuse breaks each rule of a managed service's target: a one-line error
// naming the target, the rule, its documentation page and the way out, and no file.
func TestServiceRulesRefuse(t *testing.T) {
	local := filepath.Join(conformanceDumps, "types.rdb") // keys in four databases
	tests := []struct {
		target, out, want string
	}{
		{"elasticache-valkey-8.0", "seed.rdb", "more than one database"},
		{"elasticache-redis-7.1", "a,b.rdb", "comma"},
		{"elasticache-valkey-8.0", "seed.rdb.gz", "without .gz"},
		{"memorystore-redis-7.2", "seed.dump", "ends in .rdb"},
		{"memorystore-redis-7.2", "seed.rdb.gz", "without .gz"},
	}
	for _, tt := range tests {
		t.Run(tt.target+" "+tt.want, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"convert", "-q", "--target", tt.target, local, "-o", filepath.Join(dir, tt.out)}
			if tt.want != "more than one database" {
				args = append(args, "--db", "0")
			}
			_, _, err := run(t, t.Context(), args...)
			svc, _ := rdb.LookupService(tt.target)
			switch {
			case err == nil:
				t.Fatal("exit 0")
			case !errors.Is(err, rdb.ErrServiceRule) && !strings.Contains(err.Error(), rdb.ErrServiceRule.Error()):
				t.Fatalf("not a rule's error: %v", err)
			case strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), svc.Doc) || !strings.Contains(err.Error(), tt.target):
				t.Fatalf("error %q does not name the target, the rule (%q) and %s", err, tt.want, svc.Doc)
			}
			if left := dirEntries(t, dir); len(left) != 0 {
				t.Fatalf("refused, but left %v", left)
			}
		})
	}
	if _, _, err := run(t, t.Context(), "convert", "-q", "--target", "redis-cloud", "--db", "0", local, "-o", filepath.Join(t.TempDir(), "seed.rdb.gz")); err != nil {
		t.Fatalf("redis-cloud takes .rdb.gz: %v", err)
	}
}
