package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/manifest"
)

// TestBaseTimeRebuildsTheSameBytes: with --base-time, the same flags write the same file,
// byte for byte, for a dataset with TTLs and a spec file with TTLs and relative timestamps;
// the expiries count from the base time.
func TestBaseTimeRebuildsTheSameBytes(t *testing.T) {
	for _, args := range [][]string{
		{"--count", "1000", "--ttl", "1h", "--ttl-jitter", "5m", "--value", "random"},
		{"--spec", "../../examples/sessions.yaml", "--count-scale", "0.001"},
		{"--spec", "../../examples/spring-data-redis.yaml", "--count-scale", "0.01"},
	} {
		var sums []string
		for range 2 {
			out := filepath.Join(t.TempDir(), "d.rdb")
			if _, stderr, err := run(t, context.Background(), append(args, "--base-time", "2026-11-29T10:00:00Z", "-o", out, "-q")...); err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			sums = append(sums, redistest.FileSum(t, out))
			m, err := manifest.Read(manifest.PathFor(out))
			if err != nil {
				t.Fatal(err)
			}
			if want := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC); !m.CreatedAt.Equal(want) {
				t.Fatalf("%v: manifest created at %s, want %s", args, m.CreatedAt, want)
			}
			if m.Dataset != nil && m.Dataset.BaseTimeMS != time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC).UnixMilli() {
				t.Fatalf("%v: dataset base time %d", args, m.Dataset.BaseTimeMS)
			}
		}
		if sums[0] != sums[1] {
			t.Errorf("%v: two runs with one base time wrote different files", args)
		}
	}
}

// TestBaseTimeBadInput: a --base-time that is not a time is a one-line error.
func TestBaseTimeBadInput(t *testing.T) {
	checkBadInput(t, []string{"--count", "1", "--base-time", "yesterday"}, `--base-time "yesterday": want an RFC 3339 time`)
}
