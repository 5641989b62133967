package main

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rebase"
)

// TestConvertKeepsCreationTime: convert and import keep the input's ctime (from a file, a
// gzipped file and stdin), so that a later --rebase-expiry moves the TTLs by the time since
// the original dump was written: a key that had 2h left then has 2h left on a real server
// (issue 22, item 7). --base-time still sets it.
func TestConvertKeepsCreationTime(t *testing.T) {
	ctx := context.Background()
	orig := generateWith(t, "--count", "20", "--ttl", "2h", "--base-time", "-1h", "--target", "redis-7.0")
	want, err := rebase.Created(ctx, orig)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	gzipped := filepath.Join(t.TempDir(), "dump.rdb.gz")
	if err := os.WriteFile(gzipped, gz(t, string(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		name  string
		stdin []byte
		args  []string
	}{
		{"convert a file", nil, []string{"convert", orig}},
		{"convert a gzipped file", nil, []string{"convert", gzipped}},
		{"convert stdin", b, []string{"convert", "-"}},
		{"import a file", nil, []string{"import", orig}},
		{"import stdin, gzipped", gz(t, string(b)), []string{"import", "-"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conv := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".rdb")
			args := append(tt.args, "-o", conv, "--target", "redis-6.2", "-q")
			if _, stderr, err := runStdin(t, tt.stdin, args...); err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			if got, err := rebase.Created(ctx, conv); err != nil || !got.Equal(want) {
				t.Fatalf("ctime of the converted file %v, %v; want the input's, %v", got, err, want)
			}
			fresh := conv + ".fresh.rdb"
			if _, stderr, err := run(t, ctx, "convert", conv, "-o", fresh, "--target", "redis-7.0", "--rebase-expiry", "-q"); err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			srv := servertest.Start(t, fresh)
			ttl, err := srv.Client().PTTL(ctx, "key100000001").Result()
			if err != nil || ttl < 2*time.Hour-time.Minute || ttl > 2*time.Hour+time.Second {
				t.Fatalf("PTTL after convert then --rebase-expiry: %v, %v; want the 2h the key had when the dump was written", ttl, err)
			}
		})
	}
	base := filepath.Join(dir, "base.rdb")
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if _, _, err := run(t, ctx, "convert", orig, "-o", base, "--base-time", at.Format(time.RFC3339), "-q"); err != nil {
		t.Fatal(err)
	}
	if got, err := rebase.Created(ctx, base); err != nil || !got.Equal(at) {
		t.Fatalf("--base-time: ctime %v, %v; want %v", got, err, at)
	}
}

// ctimeDump writes an RDB file whose ctime AUX field is value, holding a string key "k" that
// expires an hour after 2026-01-01.
func ctimeDump(t *testing.T, value string) string {
	t.Helper()
	b := []byte("REDIS0009\xfa\x05ctime")
	b = append(b, byte(len(value)))
	b = append(b, value...)
	b = append(b, "\xfe\x00\xfc"...)
	b = binary.LittleEndian.AppendUint64(b, uint64(time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC).UnixMilli()))
	b = append(b, "\x00\x01k\x01v\xff"...)
	b = binary.LittleEndian.AppendUint64(b, rdb.Checksum(b))
	path := filepath.Join(t.TempDir(), "ctime.rdb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConvertBadCtime: a ctime that is not a time is refused before anything is written,
// naming the value, with --rebase-expiry or without; --base-time is the way out without
// (issue 22, item 21).
func TestConvertBadCtime(t *testing.T) {
	ctx := context.Background()
	for _, ctime := range []string{"99999999999999", "abc", "-100"} {
		in := ctimeDump(t, ctime)
		dir := t.TempDir()
		out := filepath.Join(dir, "out.rdb")
		for _, tt := range []struct {
			args []string
			want string
		}{
			{[]string{"--rebase-expiry"}, `--rebase-expiry: ` + in + `: ctime AUX field "` + ctime + `": not a creation time`},
			{[]string{"--rebase-to", "2030-01-01T00:00:00Z"}, `ctime AUX field "` + ctime + `"`},
			{nil, `ctime AUX field "` + ctime + `": not a creation time (whole Unix seconds from 1970 to 9999); give the output's creation time with --base-time`},
		} {
			_, _, err := run(t, ctx, append([]string{"convert", in, "-o", out, "--target", "redis-7.0", "-q"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("ctime %q %v: got %v, want one line containing %q", ctime, tt.args, err, tt.want)
			}
			if got := dirEntries(t, dir); len(got) != 0 {
				t.Errorf("ctime %q %v: a failed run left %v", ctime, tt.args, got)
			}
		}
		if _, _, err := run(t, ctx, "convert", in, "-o", out, "--target", "redis-7.0", "--base-time", "2026-01-01T00:00:00Z", "-q"); err != nil {
			t.Errorf("ctime %q with --base-time: %v", ctime, err)
		}
	}
	if _, _, err := run(t, ctx, "--count", "1", "-o", filepath.Join(t.TempDir(), "d.rdb"), "--base-time", "99999999999999"); err == nil || !strings.Contains(err.Error(), `--base-time "99999999999999"`) {
		t.Errorf("--base-time 99999999999999: got %v", err)
	}
}
