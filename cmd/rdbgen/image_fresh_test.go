package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/image"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/server"
)

// staticRdbgen builds this command as a static Linux executable, as a user would for
// --rdbgen-binary: the test binary running the command is not rdbgen.
func staticRdbgen(t *testing.T) string {
	t.Helper()
	return goBuild(t, filepath.Join(t.TempDir(), "rdbgen"), []string{"CGO_ENABLED=0", "GOOS=linux"})
}

// goBuild builds this command into bin with go build, the environment variables env
// and the flags, and returns bin.
func goBuild(t *testing.T, bin string, env []string, flags ...string) string {
	t.Helper()
	build := exec.Command("go", append(append([]string{"build", "-o", bin}, flags...), ".")...)
	build.Env = append(os.Environ(), env...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestImageExpiryFromStart builds images of a dump written two days ago with one-hour TTLs,
// on the local test image (FROM scratch: no shell). With --expiry-from-start, every key is
// there with about an hour left, and arguments of docker run reach the server; without it,
// the image starts empty, and rdbgen image warned so.
func TestImageExpiryFromStart(t *testing.T) {
	base := redistest.Image(t)
	dump := generateWith(t, "--count", "1000", "--ttl", "1h", "--base-time", "-48h", "--target", "redis-7.0")
	bin := staticRdbgen(t)
	ctx := context.Background()
	tags := map[bool]string{}
	for _, fresh := range []bool{false, true} {
		tag := "rdbgen-test/cli-fresh-" + strconv.FormatBool(fresh) + "-" + strconv.Itoa(os.Getpid()) + ":1"
		tags[fresh] = tag
		t.Cleanup(func() { exec.Command("docker", "rmi", "--force", tag).Run() })
		args := []string{"image", dump, "-t", tag, "--base", base, "--json"}
		if fresh {
			args = append(args, "--expiry-from-start", "--rdbgen-binary", bin)
		}
		stdout, stderr, err := run(t, ctx, args...)
		if err != nil {
			t.Fatal(err)
		}
		var sum image.Summary
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.ExpiryFromStart != fresh || sum.Libraries != nil {
			t.Fatalf("summary %s (%v): a static rdbgen goes alone", stdout, err)
		}
		warned := strings.Contains(stderr, "rdbgen: warning: "+dump+" holds 1000 keys with a TTL, 1000 of them expired already; the first expiry passed ")
		if warned == fresh || strings.Count(stderr, "\n") > 1 {
			t.Fatalf("expiry from start %v: stderr %q", fresh, stderr)
		}
	}

	port, err := server.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	_, c := redistest.RunImage(t, tags[false], port, nil, "--port", strconv.Itoa(port))
	if n, err := c.DBSize(ctx).Result(); err != nil || n != 0 {
		t.Fatalf("without --expiry-from-start: DBSIZE %d, %v; want 0 (the keys expired)", n, err)
	}

	if port, err = server.FreePort(); err != nil {
		t.Fatal(err)
	}
	name, c := redistest.RunImage(t, tags[true], port, nil, "--port", strconv.Itoa(port), "--maxmemory", "12mb")
	if n, err := c.DBSize(ctx).Result(); err != nil || n != 1000 {
		t.Fatalf("with --expiry-from-start: DBSIZE %d, %v; want 1000", n, err)
	}
	for _, key := range []string{"key100000001", "key100000500", "key100001000"} {
		// ctime has whole seconds: up to a second more than the hour.
		if ttl, err := c.PTTL(ctx, key).Result(); err != nil || ttl < 59*time.Minute || ttl > time.Hour+time.Second {
			t.Fatalf("PTTL %s = %v, %v; want about an hour", key, ttl, err)
		}
	}
	cfg, err := c.ConfigGet(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if cfg["maxmemory"] != strconv.Itoa(12<<20) || cfg["save"] != "" || cfg["appendonly"] != "no" {
		t.Fatalf("maxmemory %q, save %q, appendonly %q", cfg["maxmemory"], cfg["save"], cfg["appendonly"])
	}
	logs, _ := exec.Command("docker", "logs", name).CombinedOutput()
	if !strings.Contains(string(logs), "rdbgen entrypoint: moved the expiries of 1000 keys and 0 fields of /data/dump.rdb by 48h") {
		t.Fatalf("logs:\n%s", logs)
	}
}

// TestImageExpiryFromStartNeedsStatic: a binary that is no Linux executable is refused,
// naming the way to build a static one, before anything is built.
func TestImageExpiryFromStartNeedsStatic(t *testing.T) {
	dump := writeTestDump(t, "--target", "redis-7.0")
	notELF := filepath.Join(t.TempDir(), "rdbgen")
	os.WriteFile(notELF, []byte("#!/bin/sh\n"), 0o755)
	dir := filepath.Join(t.TempDir(), "ctx")
	_, _, err := run(t, context.Background(), "image", dump, "--context", dir, "--base", "redis:7.0", "--expiry-from-start", "--rdbgen-binary", notELF)
	if err == nil || !strings.Contains(err.Error(), "is not a Linux executable") || !strings.Contains(err.Error(), "CGO_ENABLED=0 GOOS=linux go build ./cmd/rdbgen") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("a context was written")
	}
}
