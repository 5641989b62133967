package server_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

func processOptions(t *testing.T) server.Options {
	return server.Options{Backend: server.BackendProcess, RedisServer: redistest.RedisServer(t)}
}

func TestProcessLoads(t *testing.T) {
	tmp := privateTempDir(t)
	dump := redistest.WriteDump(t, testData)
	sum := redistest.FileSum(t, dump)
	inst := start(t, dump, processOptions(t))

	if inst.Backend != server.BackendProcess || inst.Container != "" {
		t.Errorf("Backend, Container = %q, %q; want process, none", inst.Backend, inst.Container)
	}
	if !strings.HasPrefix(inst.Addr, "127.0.0.1:") {
		t.Errorf("Addr = %q, want 127.0.0.1:port", inst.Addr)
	}
	if inst.LoadDuration <= 0 {
		t.Errorf("LoadDuration = %v, want > 0", inst.LoadDuration)
	}
	checkData(t, inst, testData)

	// An explicit SAVE replaces the link in the server's directory, not the
	// dump file.
	ctx := testContext(t)
	if err := inst.Client().Set(ctx, "new", "key", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := inst.Client().Save(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	log, err := inst.Log(ctx)
	if err != nil || !strings.Contains(log, "DB loaded from disk") {
		t.Errorf("Log = %q, %v; want the server's log", log, err)
	}
	if err := inst.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := inst.Close(ctx); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if log, _ := inst.Log(ctx); !strings.Contains(log, "ready to exit") {
		t.Errorf("Log after Close = %q, want the final log", log)
	}
	if got := redistest.FileSum(t, dump); got != sum {
		t.Errorf("dump file changed")
	}
	checkEmpty(t, tmp)
}

func TestProcessRefusesVersion(t *testing.T) {
	ctx := testContext(t)
	opts := processOptions(t)
	opts.LoadTimeout = 30 * time.Second
	begin := time.Now()
	_, err := server.Start(ctx, versionDump(t), opts)
	if !errors.Is(err, server.ErrLoadRefused) {
		t.Fatalf("Start = %v, want ErrLoadRefused", err)
	}
	if want := "redis refused v12.rdb: Can't handle RDB format version 12"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	var ee *server.ExitError
	if !errors.As(err, &ee) || !strings.Contains(ee.Log, "Fatal error loading the DB") {
		t.Errorf("error carries no server log: %#v", err)
	}
	if d := time.Since(begin); d > 10*time.Second {
		t.Errorf("Start took %v to see the server exit", d)
	}
}

func TestProcessRefusesTruncated(t *testing.T) {
	_, err := server.Start(testContext(t), truncatedDump(t), processOptions(t))
	if !errors.Is(err, server.ErrLoadRefused) || !strings.Contains(err.Error(), "Short read") {
		t.Fatalf("Start = %v, want ErrLoadRefused with the server's Short read line", err)
	}
	t.Log(err)
}

func TestProcessBadArgs(t *testing.T) {
	opts := processOptions(t)
	opts.Args = []string{"--no-such-option", "1"}
	_, err := server.Start(testContext(t), redistest.WriteDump(t, nil), opts)
	if !errors.Is(err, server.ErrServerExited) || !strings.Contains(err.Error(), "no-such-option") {
		t.Fatalf("Start = %v, want ErrServerExited naming the bad option", err)
	}
	t.Log(err)
}

func TestProcessArgs(t *testing.T) {
	opts := processOptions(t)
	opts.Args = []string{"--databases", "32"}
	inst := start(t, redistest.WriteDump(t, testData), opts)
	got, err := inst.Client().ConfigGet(testContext(t), "databases").Result()
	if err != nil || got["databases"] != "32" {
		t.Errorf("CONFIG GET databases = %v, %v; want 32", got, err)
	}
}

func TestRedisServerNotFound(t *testing.T) {
	opts := server.Options{Backend: server.BackendProcess, RedisServer: "/nonexistent/redis-server"}
	_, err := server.Start(testContext(t), writeFile(t, "dump.rdb", nil), opts)
	if !errors.Is(err, server.ErrRedisServerNotFound) {
		t.Fatalf("Start = %v, want ErrRedisServerNotFound", err)
	}
	t.Log(err)
}

func TestMissingDump(t *testing.T) {
	_, err := server.Start(testContext(t), "/nonexistent/dump.rdb", processOptions(t))
	if err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("Start = %v, want a missing file error", err)
	}
}

func TestProcessCancel(t *testing.T) {
	dump := redistest.WriteBigDump(t, 1_000_000)
	tmp := privateTempDir(t)
	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	opts := processOptions(t)
	var progress []record.Progress
	opts.Progress = func(p record.Progress) {
		progress = append(progress, p)
		cancel()
	}
	_, err := server.Start(ctx, dump, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Start = %v, want context.Canceled", err)
	}
	if len(progress) == 0 || progress[0].TotalBytes == 0 {
		t.Errorf("progress = %+v, want a report with the file size", progress)
	}
	checkEmpty(t, tmp)
}

// privateTempDir points TMPDIR at a new directory, where the process backend
// makes its temporary directory.
func privateTempDir(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

// checkEmpty checks that the process backend removed its temporary directory.
func checkEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 0 {
		t.Errorf("%s holds %v, %v; want nothing", dir, entries, err)
	}
}
