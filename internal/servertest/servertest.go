// Package servertest starts real Redis servers for tests and checks what
// they hold. Like redistest, it fails the test in CI when redis-server is
// missing, and skips it elsewhere.
package servertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/server"
)

// EmptyDump writes an RDB file with no keys in a test temporary directory
// and returns its path.
func EmptyDump(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := rdbgen.Generate(context.Background(), f, &dataset.Spec{}, encoder.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// StartEmpty starts a local redis-server with no keys, passing it the extra
// server arguments args (such as "--requirepass", "secret"), and stops it
// when the test ends.
func StartEmpty(t testing.TB, args ...string) *server.Instance {
	t.Helper()
	redistest.RedisServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, EmptyDump(t), server.Options{Backend: server.BackendProcess, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := inst.Close(context.Background()); err != nil {
			t.Errorf("stop redis: %v", err)
		}
	})
	return inst
}
