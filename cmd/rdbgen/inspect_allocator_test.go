package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// inspect redis:// estimates for the allocator the server reports (INFO memory's
// mem_allocator) unless --allocator is given: Debian's 7.0 (jemalloc, CI's), and each
// server built by hand with MALLOC=libc that is present.
func TestInspectLiveAllocator(t *testing.T) {
	path := servertest.WriteRecords(t, []record.Record{{Key: []byte("k"), Type: record.String, Value: []byte("v")}}, encoder.Options{Target: "redis-5.0"})
	bins := map[string]string{"redis-7.0 (Debian)": redistest.RedisServer(t)}
	for _, name := range []string{"redis-5.0.14", "redis-7.4.1", "valkey-8.0.1"} {
		bins[name] = filepath.Join(redistest.VersionsDir, name, "redis-server")
	}
	for name, bin := range bins {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(bin); err != nil {
				t.Skipf("%s not built under %s", name, redistest.VersionsDir)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: bin})
			if err != nil {
				t.Fatal(err)
			}
			defer inst.Close(context.Background())
			want := ""
			if strings.HasPrefix(name, "redis-7.0") {
				if a := allocatorOf(t, ctx, "inspect", "redis://"+inst.Addr, "--json", "--allocator", "libc"); a != "libc" {
					t.Errorf("--allocator libc: the estimate is for %q", a)
				}
			} else {
				want = "libc"
			}
			if a := allocatorOf(t, ctx, "inspect", "redis://"+inst.Addr, "--json"); a != want {
				t.Errorf("the estimate is for allocator %q, the server's is %q", a, want)
			}
		})
	}
}

// allocatorOf runs inspect --json and returns the allocator of its estimate ("" for
// jemalloc).
func allocatorOf(t *testing.T, ctx context.Context, args ...string) string {
	t.Helper()
	stdout, stderr, err := run(t, ctx, args...)
	if err != nil {
		t.Fatalf("%v: %v, %s", args, err, stderr)
	}
	var rep struct {
		Memory struct {
			Allocator string `json:"allocator"`
		} `json:"memory"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %v: %s", args, err, stdout)
	}
	return rep.Memory.Allocator
}
