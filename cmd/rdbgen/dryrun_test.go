package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/internal/summary"
)

// TestDryRun: --dry-run writes nothing, and the used_memory it prints is within 15% of what
// a real server reports once it has loaded the file the same flags write.
func TestDryRun(t *testing.T) {
	for _, args := range [][]string{
		{"--count", "200000", "--target", "redis-7.0"},
		{"--count", "50000", "--type", "hash", "--members", "10", "--target", "redis-7.0", "--ttl", "1h"},
		{"--spec", "../../examples/sessions.yaml", "--count-scale", "0.05", "--target", "redis-7.0"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "d.rdb")
			stdout, stderr, err := run(t, context.Background(), append(args, "-o", out, "--dry-run", "--json", "--base-time", "2100-01-01T00:00:00Z")...)
			if err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			if got := dirEntries(t, dir); len(got) != 0 {
				t.Fatalf("--dry-run wrote %v", got)
			}
			var sum summary.DryRun
			if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Keys == 0 || sum.Bytes == 0 {
				t.Fatalf("summary %q: %+v, %v", stdout, sum, err)
			}
			if _, stderr, err := run(t, context.Background(), append(args, "-o", out, "-q", "--base-time", "2100-01-01T00:00:00Z")...); err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			empty := servertest.StartEmpty(t)
			loaded := servertest.Start(t, out)
			base := servertest.UsedMemory(t, empty.Client())
			got := servertest.UsedMemory(t, loaded.Client()) - base
			if math.Abs(float64(sum.UsedMemory-got))/float64(got) > 0.15 {
				t.Fatalf("--dry-run says used_memory %d, the server %d (minus the empty server's %d)", sum.UsedMemory, got, base)
			}
			if fi, err := os.Stat(out); err != nil || fi.Size() != sum.Bytes && sum.BytesExact {
				t.Fatalf("--dry-run says %d bytes, exactly; the file: %v, %v", sum.Bytes, fi, err)
			}
			if b, err := os.ReadFile(out); err != nil || string(b[:9]) != fmt.Sprintf("REDIS%04d", sum.RDBVersion) {
				t.Fatalf("--dry-run says RDB %d; the file: %.9q (%v)", sum.RDBVersion, b, err)
			}
		})
	}
}
