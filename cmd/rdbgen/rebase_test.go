package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/verify"
)

// TestConvertRebaseExpiry converts a dump made two days ago with one-hour TTLs: rebased, a
// real server loads every key with about an hour left; as it was, the server loads none.
func TestConvertRebaseExpiry(t *testing.T) {
	old := generateWith(t, "--count", "300", "--ttl", "1h", "--base-time", "-48h", "--target", "redis-7.0")
	out := filepath.Join(t.TempDir(), "fresh.rdb")
	if _, _, err := run(t, context.Background(), "convert", old, "-o", out, "--target", "redis-7.0", "--rebase-expiry", "-q"); err != nil {
		t.Fatal(err)
	}
	inst := servertest.Start(t, out)
	c := servertest.Client(t, inst.Addr, 0)
	ctx := context.Background()
	if n, err := c.DBSize(ctx).Result(); err != nil || n != 300 {
		t.Fatalf("rebased: DBSIZE %d, %v; want 300", n, err)
	}
	for _, key := range []string{"key100000001", "key100000150", "key100000300"} {
		// ctime has whole seconds: up to a second more than the hour.
		if ttl, err := c.PTTL(ctx, key).Result(); err != nil || ttl < 59*time.Minute || ttl > time.Hour+time.Second {
			t.Fatalf("PTTL %s = %v, %v; want about an hour", key, ttl, err)
		}
	}
	m, err := manifest.Read(manifest.PathFor(out))
	if err != nil {
		t.Fatal(err)
	}
	var shift struct {
		From, To time.Time
		ShiftMS  int64 `json:"shift_ms"`
	}
	b, _ := json.Marshal(m.Rebase)
	if err := json.Unmarshal(b, &shift); err != nil || shift.ShiftMS < 48*3600_000 || shift.ShiftMS > 48*3600_000+60_000 || time.Since(shift.To) > time.Minute {
		t.Fatalf("manifest rebase %s: %v", b, err)
	}

	stale := servertest.Start(t, old)
	if n, err := servertest.Client(t, stale.Addr, 0).DBSize(ctx).Result(); err != nil || n != 0 {
		t.Fatalf("as it was: DBSIZE %d, %v; want 0", n, err)
	}
}

// TestConvertRebaseKeepsExpiredExpired rebases a file holding a key that had expired when it
// was written, one that had an hour left and one without a TTL, to now and to a time given:
// every expiry moves by the same amount, so the expired key is expired at the new time and
// the others keep what they had left.
func TestConvertRebaseKeepsExpiredExpired(t *testing.T) {
	created := time.Now().Add(-72 * time.Hour).Truncate(time.Second)
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "redis-7.0", CreatedAt: created})
	if err != nil {
		t.Fatal(err)
	}
	w.BeginDB(0, record.Counts{})
	for _, r := range []record.Record{
		{Key: []byte("expired-then"), Value: []byte("v"), ExpireAtMS: created.Add(-time.Minute).UnixMilli()},
		{Key: []byte("hour-left"), Value: []byte("v"), ExpireAtMS: created.Add(time.Hour).UnixMilli()},
		{Key: []byte("forever"), Value: []byte("v")},
	} {
		r.WriteTo(w)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "in.rdb")
	os.WriteFile(in, buf.Bytes(), 0o644)
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		args    []string
		hourAt  time.Time
		wantNow int64 // keys a server loads now
	}{
		{"now", []string{"--rebase-expiry"}, time.Now().Add(time.Hour), 2},
		// Expired a minute before the new time, a day ahead: a server loads it today.
		{"a day ahead", []string{"--rebase-to", "24h"}, time.Now().Add(25 * time.Hour), 3},
		{"RFC 3339", []string{"--rebase-to", created.Add(24 * time.Hour).Format(time.RFC3339)}, created.Add(25 * time.Hour), 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.rdb")
			if _, _, err := run(t, ctx, append([]string{"convert", in, "-o", out, "--target", "redis-7.0", "-q"}, tt.args...)...); err != nil {
				t.Fatal(err)
			}
			rep, err := verify.File(ctx, out, verify.Options{Offline: true})
			if err != nil || !rep.Pass {
				t.Fatalf("verify: %v, %+v", err, rep)
			}
			f := rep.File
			if f.Keys != 3 || f.Expires != 2 || f.MaxExpireAtMS != tt.hourAt.UnixMilli() && abs(f.MaxExpireAtMS-tt.hourAt.UnixMilli()) > 2000 {
				t.Fatalf("file: %d keys, %d expire, last at %d, want %d", f.Keys, f.Expires, f.MaxExpireAtMS, tt.hourAt.UnixMilli())
			}
			if f.MinExpireAtMS != f.MaxExpireAtMS-61*60_000 {
				t.Fatalf("the expired key moved by another amount: %d, %d", f.MinExpireAtMS, f.MaxExpireAtMS)
			}
			inst := servertest.Start(t, out)
			if n, err := servertest.Client(t, inst.Addr, 0).DBSize(ctx).Result(); err != nil || n != tt.wantNow {
				t.Fatalf("DBSIZE %d, %v; want %d", n, err, tt.wantNow)
			}
		})
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestConvertRebaseBadInput(t *testing.T) {
	dump := generateWith(t, "--count", "10")
	out := filepath.Join(t.TempDir(), "out.rdb")
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"bad time", []string{"convert", dump, "-o", out, "--rebase-to", "tomorrow"}, `--rebase-to "tomorrow": want an RFC 3339 time`},
		{"stdin, empty", []string{"convert", "-", "-o", out, "--rebase-expiry"}, "--rebase-expiry: read stdin: rdb byte 0: decoder: not an RDB file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, context.Background(), tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatal("an output was written")
			}
		})
	}
}

// TestVerifyReportsExpired: the offline stage tells how many keys have expired and when the
// last one expires, in text and JSON, so that a stale dump shows.
func TestVerifyReportsExpired(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		args    []string
		expired uint64
		text    string
	}{
		{"stale", []string{"--ttl", "1h", "--base-time", "-48h"}, 50, "50 of 50 keys with a TTL already expired at "},
		{"fresh", []string{"--ttl", "1h"}, 0, "0 of 50 keys with a TTL already expired at "},
		{"half", []string{"--ttl", "2h", "--ttl-jitter", "1h59m", "--base-time", "-2h"}, 0, " keys with a TTL already expired at "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dump := generateWith(t, append([]string{"--count", "50"}, tt.args...)...)
			stdout, _, err := run(t, ctx, "verify", dump, "--backend", "offline", "--json")
			if err != nil {
				t.Fatal(err)
			}
			var rep verify.Report
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatal(err)
			}
			f := rep.File
			if tt.name != "half" && f.Expired != tt.expired {
				t.Fatalf("expired %d, want %d", f.Expired, tt.expired)
			}
			if tt.name == "half" && (f.Expired == 0 || f.Expired == 50) {
				t.Fatalf("expired %d, want some of 50", f.Expired)
			}
			if time.Since(time.UnixMilli(f.CheckedAtMS)) > time.Minute || !strings.Contains(stdout, `"expired": `) {
				t.Fatalf("checked at %d\n%s", f.CheckedAtMS, stdout)
			}
			stdout, _, err = run(t, ctx, "verify", dump, "--backend", "offline")
			if err != nil || !strings.Contains(stdout, tt.text) {
				t.Fatalf("%v\n%s", err, stdout)
			}
			if stale := strings.Contains(stdout, "the dump is stale"); stale != (tt.name == "stale") {
				t.Fatalf("stale %v:\n%s", stale, stdout)
			}
		})
	}
}

// TestEntrypointBadInput: the entrypoint refuses what it cannot run, in one line, before
// touching the dump.
func TestEntrypointBadInput(t *testing.T) {
	dump := generateWith(t, "--count", "10", "--ttl", "1h")
	sum := redistest.FileSum(t, dump)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no command", []string{dump}, "want DUMP -- COMMAND [ARGS...]"},
		{"no --", []string{dump, "redis-server"}, "want DUMP -- COMMAND [ARGS...]"},
		{"a flag", []string{"--dump", dump}, "--dump: no such flag for rdbgen entrypoint"},
		{"command not found", []string{dump, "--", "no-such-server-rdbgen"}, `command "no-such-server-rdbgen": exec: "no-such-server-rdbgen": executable file not found in $PATH`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, context.Background(), append([]string{"entrypoint"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if redistest.FileSum(t, dump) != sum {
				t.Fatal("the dump changed")
			}
		})
	}
}
