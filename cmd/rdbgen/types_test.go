package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

func TestGenerateCollectionTypes(t *testing.T) {
	for _, typ := range []string{"hash", "list", "set", "zset"} {
		t.Run(typ, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "dump.rdb")
			stdout, _, err := run(t, context.Background(), "--count", "50", "--type", typ, "--members", "2-300",
				"--value", "random", "--value-size", "12", "--target", "redis-7.2", "--zset-max-listpack-entries", "200",
				"-o", out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stdout, "wrote 50 keys (0 with TTL, ") || !strings.Contains(stdout, " members at ") {
				t.Fatalf("summary: %q", stdout)
			}
			m, err := manifest.Read(manifest.PathFor(out))
			if err != nil {
				t.Fatal(err)
			}
			if m.Dataset.Type != record.Type(typ) || m.Dataset.Members != (dataset.Range{Min: 2, Max: 300}) {
				t.Fatalf("manifest dataset %+v", m.Dataset)
			}
			want := rdb.DefaultThresholds()
			want.ZSetMaxListpackEntries = 200
			if m.Thresholds == nil || *m.Thresholds != want {
				t.Fatalf("manifest thresholds %+v, want %+v", m.Thresholds, want)
			}
		})
	}
}

func TestGenerateCollectionBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--type", "streams"}, `type "streams" (known: string, hash, list, set, zset, stream)`},
		{[]string{"--type", "set", "--members", "0"}, "at least 1 member"},
		{[]string{"--type", "set", "--members", "9-3"}, "above the maximum"},
		{[]string{"--type", "hash", "--members", "ten"}, "want N or MIN-MAX"},
		{[]string{"--members", "5"}, "--members goes with --type"},
		{[]string{"--type", "set", "--value", "random", "--value-size", "5"}, "at least 11"},
		{[]string{"--type", "hash", "--hash-max-listpack-value", "-1"}, "hash-max-listpack-value -1"},
		{[]string{"--type", "list", "--list-max-listpack-size", "-9"}, "list-max-listpack-size -9"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		args := append([]string{"--count", "3", "-o", filepath.Join(dir, "dump.rdb")}, tt.args...)
		_, _, err := run(t, context.Background(), args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: got %v, want an error containing %q", tt.args, err, tt.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%v: left %d files behind", tt.args, len(entries))
		}
	}
}
