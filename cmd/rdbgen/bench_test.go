package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/bench"
	"github.com/rdbgen/rdbgen/internal/redistest"
)

// TestBenchCommand runs a small bench on local servers and checks the table
// and the report files.
func TestBenchCommand(t *testing.T) {
	redistest.RedisServer(t)
	dir := filepath.Join(t.TempDir(), "bench-out")
	stdout, stderr, err := run(t, context.Background(), "bench", "--count", "1500", "--backend", "process",
		"--workers", "3", "--methods", "parallel,snapshot,mass", "--ttl", "1h", "--db", "1", "--report", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"1500 keys into redis ", "(process backend), median of 1 run(s)",
		"| method | workers/batch | keys | seconds | keys/s | vs snapshot |",
		"| parallel | 3 | 1500 | ", "| mass | 1 | 1500 | ",
		"| snapshot generate | - | 1500 | ", "| snapshot load | - | 1500 | ", "| snapshot total | - | 1500 | ", " | 1.00x |",
		"report: results.csv, results.json and bench.png in " + dir,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "FAILED") || strings.Contains(stdout, "sequential") || stderr != "" {
		t.Errorf("stdout:\n%s\nstderr %q", stdout, stderr)
	}
	for _, name := range []string{bench.CSVFile, bench.JSONFile, bench.ChartFile} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestBenchJSON(t *testing.T) {
	redistest.RedisServer(t)
	stdout, _, err := run(t, context.Background(), "bench", "--count", "100", "--backend", "process", "--methods", "pipeline", "--batch", "7", "--repeat", "2", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var r bench.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if len(r.Rows) != 1 || r.Rows[0].Batch != 7 || len(r.Rows[0].Runs) != 2 || r.Rows[0].DBSize != 100 || r.Rows[0].Failed() {
		t.Fatalf("report %+v", r)
	}
}

func TestBenchBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no count", nil, "--count is required"},
		{"unknown method", []string{"--count", "1", "--methods", "sequential,carrier-pigeon"}, `method "carrier-pigeon"`},
		{"zero workers", []string{"--count", "1", "--workers", "0"}, "workers 0 out of range"},
		{"bad repeat", []string{"--count", "1", "--repeat", "-2"}, "repeat -2 is not positive"},
		{"unknown backend", []string{"--count", "1", "--backend", "vm", "--methods", "mass"}, `unknown backend "vm"`},
		{"stray argument", []string{"--count", "1", "now"}, `unexpected argument "now"`},
		{"db with a spec", []string{"--spec", "../../examples/sessions.yaml", "--db", "3"}, "--db does not go with --spec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			_, _, err := run(t, context.Background(), append([]string{"bench", "--report", dir}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line containing %q", err, tt.want)
			}
			if _, err := os.Stat(dir); err == nil {
				t.Fatal("a failed bench wrote a report")
			}
		})
	}
}
