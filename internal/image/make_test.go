package image

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// expiringDump writes a dump of keys string keys, each expiring at expireAt, created at
// created.
func expiringDump(t *testing.T, keys int, created, expireAt time.Time) string {
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "redis-7.0", CreatedAt: created})
	if err != nil {
		t.Fatal(err)
	}
	w.BeginDB(0, record.Counts{Keys: uint64(keys), Expires: uint64(keys)})
	for i := range keys {
		w.Begin(&record.Header{Key: []byte(strings.Repeat("k", i+1)), Type: record.String, Value: []byte("v"), ExpireAtMS: expireAt.UnixMilli()})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, buf.String())
}

// TestMakeContext: with a directory, Make writes the build context and summarizes it, with
// the plan's warning of expiries that pass within a day (no Docker engine needed).
func TestMakeContext(t *testing.T) {
	now := time.Now()
	dump := expiringDump(t, 10, now, now.Add(time.Hour))
	dir := filepath.Join(t.TempDir(), "ctx")
	offline := Options{DockerHost: "unix:///nonexistent/docker.sock", Base: "redis:7.0"}
	s, err := Make(context.Background(), dump, "", dir, offline)
	if err != nil {
		t.Fatal(err)
	}
	if s.Context != dir || s.Dump != dump || s.Tag != "" || s.RDBVersion != 10 || s.Base != "redis:7.0" || len(s.Warnings) != 1 {
		t.Errorf("summary %+v", s)
	}
	for _, name := range []string{"Dockerfile", DumpName} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if _, err := Make(context.Background(), dump, "", dir, offline); err == nil {
		t.Error("Make over an existing context without Force: no error")
	}
	offline.Force = true
	if _, err := Make(context.Background(), dump, "", dir, offline); err != nil {
		t.Errorf("Make over an existing context with Force: %v", err)
	}
}

// TestRebaseAtStart: the expiries move by the time since the dump's creation, and the line
// says so; a missing dump is left alone.
func TestRebaseAtStart(t *testing.T) {
	created := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
	dump := expiringDump(t, 3, created, created.Add(time.Hour))
	now := created.Add(48 * time.Hour)
	msg, err := RebaseAtStart(context.Background(), dump, now)
	if err != nil {
		t.Fatal(err)
	}
	want := "moved the expiries of 3 keys and 0 fields of " + dump + " by 48h0m0s (from " + created.UTC().Format(time.RFC3339)
	if !strings.HasPrefix(msg, want) {
		t.Errorf("got %q, want it to start %q", msg, want)
	}
	missing := filepath.Join(t.TempDir(), "none.rdb")
	if msg, err := RebaseAtStart(context.Background(), missing, now); err != nil || msg != "no "+missing+": expiries left alone" {
		t.Errorf("missing dump: %q, %v", msg, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.rdb")
	os.WriteFile(bad, []byte("not a dump"), 0o644)
	if _, err := RebaseAtStart(context.Background(), bad, now); err == nil || !strings.HasPrefix(err.Error(), "rebase "+bad+": ") {
		t.Errorf("bad dump: %v", err)
	}
}

// TestEntrypointNoCommand: a command not in PATH is refused before the dump is touched.
func TestEntrypointNoCommand(t *testing.T) {
	created := time.Now().Add(-time.Hour)
	dump := expiringDump(t, 3, created, created.Add(2*time.Hour))
	before, _ := os.ReadFile(dump)
	err := Entrypoint(context.Background(), dump, []string{"no-such-server-rdbgen"}, func(msg string) { t.Errorf("reported %q", msg) })
	if err == nil || !strings.HasPrefix(err.Error(), `command "no-such-server-rdbgen": `) {
		t.Errorf("got %v", err)
	}
	if after, _ := os.ReadFile(dump); !bytes.Equal(before, after) {
		t.Error("the dump changed")
	}
}
