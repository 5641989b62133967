package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestFormatRESP writes the same data as an RDB file and, with --format resp, as the
// commands redis-cli --pipe sends: a server started on the file and a server fed the
// commands hold the same data (DEBUG DIGEST), for generated datasets, a spec file and an
// import, each for the target's commands.
func TestFormatRESP(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "in.jsonl")
	os.WriteFile(jsonl, []byte(`{"db":0,"key":"s","type":"string","value":"v","expiration":"2100-01-01T00:00:00Z"}
{"db":0,"key":"z","type":"zset","entries":[{"member":"a","score":1.5},{"member":"b","score":-2}]}
{"db":2,"key":"l","type":"list","values":["x","y","x"]}
`), 0o644)
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"strings with ttl", []string{"--count", "3000", "--ttl", "1h", "--target", "redis-7.0"}},
		{"strings for redis 5", []string{"--count", "3000", "--ttl", "1h", "--value", "random"}},
		{"hashes", []string{"--count", "2000", "--type", "hash", "--members", "1-40", "--db", "4"}},
		{"large sets", []string{"--count", "3", "--type", "set", "--members", "5000"}},
		{"zsets", []string{"--count", "500", "--type", "zset", "--members", "1-300"}},
		{"spec", []string{"--spec", "../../examples/spring-data-redis.yaml", "--count-scale", "0.05", "--base-time", "2026-11-29T10:00:00Z"}},
		{"spec with ttl", []string{"--spec", "../../examples/spring-cache.yaml", "--base-time", "2100-01-01T00:00:00Z"}},
		{"import", []string{"import", jsonl}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rdb := filepath.Join(t.TempDir(), "d.rdb")
			cmds := filepath.Join(t.TempDir(), "d.resp")
			base := append([]string{}, tt.args...)
			if _, stderr, err := run(t, context.Background(), append(base, "-o", rdb, "-q")...); err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			stdout, stderr, err := run(t, context.Background(), append(base, "-o", cmds, "--format", "resp")...)
			if err != nil || !strings.Contains(stdout, "commands to "+cmds) {
				t.Fatalf("%v: %s%s", err, stdout, stderr)
			}
			if _, err := os.Stat(cmds + ".manifest.json"); err == nil {
				t.Fatal("--format resp wrote a manifest")
			}
			fromFile := servertest.Start(t, rdb, "--enable-debug-command", "yes", "--databases", "16")
			piped := servertest.StartEmpty(t, "--enable-debug-command", "yes", "--databases", "16")
			servertest.Pipe(t, piped.Addr, cmds)
			want, err := fromFile.Client().Do(context.Background(), "DEBUG", "DIGEST").Text()
			if err != nil {
				t.Fatal(err)
			}
			got, err := piped.Client().Do(context.Background(), "DEBUG", "DIGEST").Text()
			if err != nil || got != want || strings.Trim(want, "0") == "" {
				t.Fatalf("DEBUG DIGEST of the piped server %s, %v; of the server on the file %s", got, err, want)
			}
		})
	}
}

// TestFormatRESPBadFlags: what --format resp cannot do is a one-line error.
func TestFormatRESPBadFlags(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--count", "1", "--format", "csv", "-o", out}, `--format "csv": want rdb or resp`},
		{[]string{"--count", "1", "--format", "resp", "--cluster-shards", "3", "-o", out}, "does not go with --cluster-shards"},
		{[]string{"--count", "1", "--format", "resp", "--manifest", out + ".m", "-o", out}, "writes no manifest"},
	} {
		checkBadInput(t, tt.args, tt.want)
	}
}
