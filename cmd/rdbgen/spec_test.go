package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

func writeSpec(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dataset.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const smallSpec = `seed: 5
families:
  - key: "user:{id}"
    count: 100
    type: hash
    ttl: 1h
    fields:
      name: {fake: name}
  - key: "tags:{id}"
    count: 10
    db: 3
    type: set
    members: {count: 3, value: {sequence: {}}}
`

func TestGenerateSpecWritesFileAndManifest(t *testing.T) {
	specPath := writeSpec(t, smallSpec)
	out := filepath.Join(t.TempDir(), "dump.rdb")
	stdout, _, err := run(t, context.Background(), "--spec", specPath, "-o", out, "--seed", "9", "--target", "redis-7.0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "wrote 110 keys (100 with TTL, 130 members") {
		t.Fatalf("summary %q", stdout)
	}
	m, err := manifest.Read(manifest.PathFor(out))
	if err != nil {
		t.Fatal(err)
	}
	if m.Spec == nil || m.Spec.YAML != smallSpec || m.Spec.Seed != 9 || m.Spec.BaseTimeMS == 0 || m.Spec.File != specPath {
		t.Fatalf("manifest spec %+v", m.Spec)
	}
	if m.DBs[0] != (record.Counts{Keys: 100, Expires: 100}) || m.DBs[3] != (record.Counts{Keys: 10}) || m.Keys != 110 {
		t.Fatalf("manifest counts %+v %+v", m.DBs, m)
	}
	// The manifest is enough to recompute a record.
	s, err := spec.Parse(m.Spec.File, []byte(m.Spec.YAML))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetParams(m.Spec.Params); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Families[0].Record(0); err != nil || r.ExpireAtMS != m.Spec.BaseTimeMS+3600_000 {
		t.Fatalf("record %+v, %v", r, err)
	}
}

func TestGenerateSpecBadInput(t *testing.T) {
	good := writeSpec(t, smallSpec)
	bad := writeSpec(t, "families:\n  - key: \"u:{id}\"\n    count: 3\n    type: hash\n    fields:\n      a: {int: {min: 9, max: 1}}\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"malformed spec", []string{"--spec", bad}, bad + ":6:30: families[0].fields.a.int.max: 1 is below min 9"},
		{"missing spec", []string{"--spec", "/nonexistent.yaml"}, "read spec: open /nonexistent.yaml: no such file or directory"},
		{"with count", []string{"--spec", good, "--count", "5"}, "--count does not go with --spec"},
		{"with ttl", []string{"--spec", good, "--ttl", "1h"}, "--ttl does not go with --spec"},
		{"scale without spec", []string{"--count", "5", "--count-scale", "0.5"}, "--count-scale goes with --spec"},
		{"negative scale", []string{"--spec", good, "--count-scale", "-1"}, "count scale -1"},
		{"unknown target", []string{"--spec", good, "--target", "redis-1"}, `unknown target "redis-1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			_, _, err := run(t, context.Background(), tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line containing %q", err, tt.want)
			}
			if got := dirEntries(t, "."); len(got) != 0 {
				t.Fatalf("a failed run left files: %v", got)
			}
		})
	}
}

func TestSpecCheck(t *testing.T) {
	path := writeSpec(t, smallSpec)
	stdout, _, err := run(t, context.Background(), "spec", "check", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{path + ": ok", "user:{id}", "hash", "1h0m0s", "110 keys (100 with TTL) in 2 families; estimated file size"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, err = run(t, context.Background(), "spec", "check", "--json", "--target", "redis-7.2", "--count-scale", "0.5", path)
	if err != nil {
		t.Fatal(err)
	}
	var res summary.SpecCheck
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Keys != 55 || res.RDBVersion != 11 || len(res.Families) != 2 || res.Bytes < 1000 || !res.Families[1].Exact {
		t.Fatalf("result %+v", res)
	}
	bad := writeSpec(t, "families:\n  - key: a\n    valeu: x\n")
	if _, _, err := run(t, context.Background(), "spec", "check", bad); err == nil || !strings.Contains(err.Error(), bad+":3:5: families[0].valeu: unknown field") {
		t.Fatalf("got %v", err)
	}
	if _, _, err := run(t, context.Background(), "spec", "check"); err == nil {
		t.Fatal("spec check without a file succeeded")
	}
}

// TestExampleSpecsCheck runs spec check on every shipped example.
func TestExampleSpecsCheck(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.yaml")
	if len(files) < 4 {
		t.Fatalf("examples: %v", files)
	}
	for _, f := range files {
		if _, _, err := run(t, context.Background(), "spec", "check", f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
