package bench_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/bench"
	"github.com/rdbgen/rdbgen/record"
)

// TestPrint prints a report as each flag says, writes its files where asked, and returns the
// failed rows as the command's error.
func TestPrint(t *testing.T) {
	passing := fixedReport()
	passing.Rows = append(passing.Rows[:2:2], passing.Rows[3:]...)
	tests := []struct {
		name          string
		r             *bench.Report
		dir           bool
		asJSON, quiet bool
		out, err      string
	}{
		{"text", passing, false, false, false, "1000000 keys into redis 7.0.15 (process backend), median of 1 run(s)", ""},
		{"text with a report", passing, true, false, false, "report: results.csv, results.json and bench.png in ", ""},
		{"json wins over quiet", passing, false, true, true, `"rows": [`, ""},
		{"quiet", passing, false, false, true, "", ""},
		{"a failed row", fixedReport(), false, false, false, "| FAILED | - | DBSIZE 999", "1 of 7 rows failed (see their errors in the table)"},
		{"a failed row, quiet", fixedReport(), false, false, true, "", "1 of 7 rows failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := ""
			if tt.dir {
				dir = filepath.Join(t.TempDir(), "out")
			}
			var out bytes.Buffer
			err := bench.Print(&out, tt.r, dir, tt.asJSON, tt.quiet)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
			if !strings.Contains(out.String(), tt.out) || tt.out == "" && out.Len() > 0 {
				t.Fatalf("printed %q, want %q", out.String(), tt.out)
			}
			if tt.asJSON && !json.Valid(out.Bytes()) {
				t.Fatalf("not JSON: %s", out.String())
			}
			if dir != "" {
				if _, err := os.Stat(filepath.Join(dir, bench.JSONFile)); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestMeasure(t *testing.T) {
	done, total, unit := bench.Measure(record.Progress{Stage: "pipeline 1/1000: loading", Keys: 3, Total: 10, Bytes: 99})
	if done != 3 || total != 10 || unit != "keys" {
		t.Fatalf("%d of %d %s", done, total, unit)
	}
}
