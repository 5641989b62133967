package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/server"
)

// testData is the dataset of the small test dumps.
var testData = map[string]string{"a": "1", "b": "hello", "c": strings.Repeat("x", 300)}

// testContext returns a context that ends with the test, or after a minute.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// start starts a server and closes it when the test ends.
func start(t *testing.T, dump string, opts server.Options) *server.Instance {
	t.Helper()
	ctx := testContext(t)
	inst, err := server.Start(ctx, dump, opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := inst.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return inst
}

// checkData checks that the server holds exactly kv.
func checkData(t *testing.T, inst *server.Instance, kv map[string]string) {
	t.Helper()
	ctx := testContext(t)
	c := inst.Client()
	n, err := c.DBSize(ctx).Result()
	if err != nil {
		t.Fatalf("DBSIZE: %v", err)
	}
	if n != int64(len(kv)) {
		t.Errorf("DBSIZE = %d, want %d", n, len(kv))
	}
	for k, want := range kv {
		got, err := c.Get(ctx, k).Result()
		if err != nil || got != want {
			t.Errorf("GET %s = %.20q, %v; want %.20q", k, got, err, want)
		}
	}
}

// writeFile writes b to a new file in a test temporary directory.
func writeFile(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// versionDump returns a dump whose header claims RDB version 12, which
// Redis 7.0 refuses.
func versionDump(t *testing.T) string {
	return writeFile(t, "v12.rdb", []byte("REDIS0012\xff\x00\x00\x00\x00\x00\x00\x00\x00"))
}

// truncatedDump returns the first 60 bytes of a good dump.
func truncatedDump(t *testing.T) string {
	b, err := os.ReadFile(redistest.WriteDump(t, testData))
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "truncated.rdb", b[:60])
}
