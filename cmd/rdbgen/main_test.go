package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageErrorsAreOneLine checks that a bad flag on any command gives one line and no help
// text, at every depth of the command tree.
func TestUsageErrorsAreOneLine(t *testing.T) {
	var paths [][]string
	app := newApp(nil, nil)
	for _, c := range app.Commands {
		paths = append(paths, []string{c.Name})
		for _, sub := range c.Subcommands {
			paths = append(paths, []string{c.Name, sub.Name})
		}
	}
	paths = append(paths, nil) // the root command
	for _, path := range paths {
		t.Run(strings.Join(append([]string{"rdbgen"}, path...), " "), func(t *testing.T) {
			stdout, stderr, err := run(t, context.Background(), append(path, "--no-such-flag")...)
			want := "--no-such-flag: no such flag for " + strings.Join(append([]string{"rdbgen"}, path...), " ")
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v", err)
			}
			if stdout != "" || stderr != "" {
				t.Fatalf("printed help: stdout %q stderr %q", stdout, stderr)
			}
		})
	}
}

// TestQuietJSON checks that --json wins over --quiet on every command that has both: the
// JSON goes to stdout, and nothing to stderr.
func TestQuietJSON(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "in.rdb")
	if _, _, err := run(t, context.Background(), "--count", "10", "-o", dump, "-q"); err != nil {
		t.Fatal(err)
	}
	shards := filepath.Join(dir, "shards")
	if _, _, err := run(t, context.Background(), "--count", "10", "--cluster-shards", "2", "-o", shards, "-q"); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(csv, []byte("key,value\na,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
	}{
		{"generate", []string{"--count", "10", "-o", filepath.Join(dir, "g.rdb")}},
		{"generate --cluster-shards", []string{"--count", "10", "--cluster-shards", "2", "-o", filepath.Join(dir, "g")}},
		{"import", []string{"import", csv, "-o", filepath.Join(dir, "i.rdb")}},
		{"verify", []string{"verify", dump, "--backend", "offline"}},
		{"inspect", []string{"inspect", dump}},
		{"verify --cluster", []string{"verify", "--cluster", shards, "--backend", "offline"}},
		{"image --context", []string{"image", dump, "--context", filepath.Join(dir, "ctx")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := run(t, context.Background(), append(tt.args, "-q", "--json")...)
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil || len(v) == 0 {
				t.Fatalf("stdout is not a JSON summary (%v): %q", err, stdout)
			}
			if stderr != "" {
				t.Fatalf("stderr %q", stderr)
			}
		})
	}
}
