package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestNewerStreamEveryCommand runs every command that reads a dump on redis/librdb's
// stream_v13_idmp.rdb (Redis 8.6, RDB 13: streams with idempotent-producer metadata, which
// no older format holds): inspect and verify read it whole and count that metadata; export,
// diff, merge, convert (RDB and RESP), import and load either carry it or stop with an
// error naming a flag, and that flag is one the command accepts, with which it goes on.
func TestNewerStreamEveryCommand(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(thirdPartyDir, "librdb", "stream_v13_idmp.rdb")
	dir := t.TempDir()

	out, stderr, err := run(t, ctx, "inspect", "--json", "--quiet", path)
	if err != nil {
		t.Fatalf("inspect: %v %s", err, stderr)
	}
	var rep struct {
		Keys  uint64            `json:"keys"`
		Newer map[string]uint64 `json:"newer"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Keys == 0 || rep.Newer["stream producer metadata"] == 0 {
		t.Fatalf("inspect: %d keys, newer %v; want the streams counted and their producer metadata", rep.Keys, rep.Newer)
	}
	text, _, err := run(t, ctx, "inspect", "--quiet", path)
	if err != nil || !strings.Contains(text, "stream producer metadata") {
		t.Fatalf("inspect's text says nothing of the producer metadata (%v):\n%s", err, text)
	}
	out, stderr, err = run(t, ctx, "verify", "--backend", "offline", path)
	if err != nil || !strings.Contains(out, "stream producer metadata") {
		t.Fatalf("verify --backend offline of a valid file: %v\n%s%s", err, out, stderr)
	}

	flagIn := regexp.MustCompile(`--[a-z][a-z-]+`)
	for _, args := range [][]string{
		{"export", "-o", filepath.Join(dir, "out.json"), path},
		{"diff", path, path},
		{"merge", "--target", "redis-7.0", "-o", filepath.Join(dir, "merged.rdb"), path},
		{"convert", "--target", "redis-7.0", "-o", filepath.Join(dir, "converted.rdb"), path},
		{"convert", "--format", "resp", "-o", filepath.Join(dir, "converted.resp"), path},
		{"import", "--target", "redis-7.0", "-o", filepath.Join(dir, "imported.rdb"), path},
		{"load", "--addr", servertest.StartEmpty(t).Addr, "--method", "restore", path},
	} {
		_, _, err := run(t, ctx, args...)
		if err == nil {
			continue // carried
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Fatalf("%q: not one line: %q", args, msg)
		}
		flags := flagIn.FindAllString(msg, -1)
		if len(flags) == 0 {
			t.Fatalf("%q: %v names no way out", args, err)
		}
		for _, flag := range flags {
			again := append([]string{args[0], flag}, args[1:]...)
			out, stderr2, err := run(t, ctx, again...)
			if err != nil {
				t.Fatalf("%q says %q; with it: %v %s", args, flag, err, stderr2)
			}
			if !strings.Contains(out+stderr2, "stream producer metadata") {
				t.Fatalf("%q: nothing says what %s left out:\n%s%s", again, flag, out, stderr2)
			}
		}
	}
}
