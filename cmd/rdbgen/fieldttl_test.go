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

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// expiredFieldsDump writes a Redis 7.4 dump (RDB 12) created an hour ago: hash "h" with a
// field that had expired then, one that expired since, one that expires in a day and one
// without a TTL; hash "gone", every field of which has expired; and a string.
func expiredFieldsDump(t *testing.T) string {
	t.Helper()
	created := time.Now().Add(-time.Hour).Truncate(time.Second)
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "redis-7.4", CreatedAt: created})
	if err != nil {
		t.Fatal(err)
	}
	before, since, later := created.Add(-time.Minute).UnixMilli(), created.Add(30*time.Minute).UnixMilli(), created.Add(25*time.Hour).UnixMilli()
	w.BeginDB(0, record.Counts{})
	for _, r := range []record.Record{
		{Key: []byte("h"), Type: record.Hash, Members: []record.Member{
			{Name: []byte("expired-then"), Value: []byte("1"), ExpireAtMS: before},
			{Name: []byte("expired-since"), Value: []byte("2"), ExpireAtMS: since},
			{Name: []byte("later"), Value: []byte("3"), ExpireAtMS: later},
			{Name: []byte("forever"), Value: []byte("4")},
		}},
		{Key: []byte("gone"), Type: record.Hash, Members: []record.Member{
			{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: before},
			{Name: []byte("b"), Value: []byte("2"), ExpireAtMS: since},
		}},
		{Key: []byte("s"), Value: []byte("v")},
	} {
		r.WriteTo(w)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r74.rdb")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConvertDropsExpiredFields: written without their TTLs (--drop-field-ttl below RDB 12),
// the fields that have expired at the time of the run are dropped and counted, and a hash
// left with none is dropped as a key, so a real Redis 7.0 serves what Redis 7.4 serves
// (issue 22, item 6).
func TestConvertDropsExpiredFields(t *testing.T) {
	in := expiredFieldsDump(t)
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "old.rdb")
	stdout, stderr, err := run(t, ctx, "convert", in, "-o", out, "--target", "redis-6.2", "--drop-field-ttl")
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if !strings.Contains(stdout, "wrote 2 keys") || !strings.Contains(stdout, "dropped 4 hash fields that had expired (1 hashes had no other field and were dropped)") || strings.Contains(stdout, "filtered out") {
		t.Fatalf("summary %q", stdout)
	}
	srv := servertest.Start(t, out)
	c := srv.Client()
	if got, err := c.HGetAll(ctx, "h").Result(); err != nil || len(got) != 2 || got["later"] != "3" || got["forever"] != "4" {
		t.Fatalf("HGETALL h = %v, %v; want later and forever", got, err)
	}
	if n, err := c.Exists(ctx, "gone").Result(); err != nil || n != 0 {
		t.Fatalf("EXISTS gone = %d, %v", n, err)
	}
	if n, err := c.DBSize(ctx).Result(); err != nil || n != 2 {
		t.Fatalf("DBSIZE %d, %v", n, err)
	}
	stdout, _, err = run(t, ctx, "convert", in, "-o", out, "-f", "--target", "redis-6.2", "--drop-field-ttl", "--json")
	var sum struct {
		Keys          uint64 `json:"keys"`
		ExpiredFields uint64 `json:"expired_fields"`
		ExpiredHashes uint64 `json:"expired_hashes"`
	}
	if err != nil || json.Unmarshal([]byte(stdout), &sum) != nil || sum != (struct {
		Keys          uint64 `json:"keys"`
		ExpiredFields uint64 `json:"expired_fields"`
		ExpiredHashes uint64 `json:"expired_hashes"`
	}{2, 4, 1}) {
		t.Fatalf("--json: %v, %s", err, stdout)
	}
	// At the time --base-time names, only the field that had expired then is dropped.
	stdout, _, err = run(t, ctx, "convert", in, "-o", out, "-f", "--target", "redis-6.2", "--drop-field-ttl", "--base-time", "-59m")
	if err != nil || !strings.Contains(stdout, "wrote 3 keys") || !strings.Contains(stdout, "dropped 2 hash fields that had expired (0 hashes") {
		t.Fatalf("--base-time: %v, %q", err, stdout)
	}
}
