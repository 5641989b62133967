package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestStreamLengthAsStored takes redis-replicator's dump-stream.rdb (Redis 5.0, RDB 9: a
// stream whose stored length, 130, is not its 128 entries, which Redis loads as XLEN 130)
// through convert, export and import back, merge, and load by commands and by RESTORE:
// redis-server 7.0.15 holds each result as it holds the original (DEBUG DIGEST, XINFO
// STREAM FULL with its length, XPENDING); commands cannot set a length, so load sends
// such a stream as RESTORE.
func TestStreamLengthAsStored(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(thirdPartyDir, "redis-replicator", "dump-stream.rdb")
	want, err := serverState70(t, redistest.RedisServer(t), src)
	if err != nil {
		t.Fatalf("redis-server 7.0.15 refuses the original: %v", err)
	}
	dir := t.TempDir()
	json := filepath.Join(dir, "out.json")
	paths := [][][]string{
		{{"convert", "--target", "redis-7.0", "-o", filepath.Join(dir, "convert.rdb"), src}},
		{{"export", "-o", json, src}, {"import", "--target", "redis-7.0", "-o", filepath.Join(dir, "import.rdb"), json}},
		{{"merge", "--target", "redis-7.0", "-o", filepath.Join(dir, "merge.rdb"), src}},
	}
	for _, steps := range paths {
		for _, args := range steps {
			if _, stderr, err := run(t, ctx, append(args[:1:1], append([]string{"--quiet"}, args[1:]...)...)...); err != nil {
				t.Fatalf("%q: %v %s", args, err, stderr)
			}
		}
		out := steps[len(steps)-1][len(steps[len(steps)-1])-2]
		got, err := serverState70(t, redistest.RedisServer(t), out)
		if err != nil {
			t.Fatalf("%s: redis-server 7.0.15 refuses it: %v", out, err)
		}
		sameState(t, "dump-stream.rdb", filepath.Base(out), want, got, stateOptions{rdb9: true})
	}
	for _, method := range []string{"pipeline", "mass", "restore"} {
		inst := servertest.StartEmpty(t, "--enable-debug-command", "yes")
		if _, stderr, err := run(t, ctx, "load", "--quiet", "--addr", inst.Addr, "--method", method, src); err != nil {
			t.Fatalf("load --method %s: %v %s", method, err, stderr)
		}
		sameState(t, "dump-stream.rdb", "load "+method, want, readState(t, inst.Addr), stateOptions{rdb9: true})
	}
}
