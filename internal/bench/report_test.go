package bench_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/bench"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func itoa(n uint64) string { return fmt.Sprint(n) }

// fixedReport is a report with a failed row and an error holding a "|".
func fixedReport() *bench.Report {
	return &bench.Report{
		Dataset:   &dataset.Config{Count: 1000000, KeyPrefix: "key", KeyStart: 100000001},
		Keys:      1000000,
		Backend:   "process",
		Server:    "redis 7.0.15",
		Repeat:    1,
		StartedAt: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
		Rows: []bench.Row{
			{Method: "sequential", Workers: 1, Batch: 1, Keys: 1000000, DBSize: 1000000, Seconds: 40, Runs: []float64{40}, KeysPerSecond: 25000, VsSnapshot: 50},
			{Method: "parallel", Workers: 50, Batch: 1, Keys: 1000000, DBSize: 1000000, Seconds: 10, Runs: []float64{10}, KeysPerSecond: 100000, VsSnapshot: 12.5},
			{Method: "pipeline", Workers: 1, Batch: 1000, Keys: 1000000, DBSize: 999, Seconds: 1, Runs: []float64{1}, Error: "DBSIZE 999 | want 1000000"},
			{Method: "redis-cli-pipe", Workers: 1, Keys: 1000000, DBSize: 1000000, Seconds: 0.9, Runs: []float64{0.9}, KeysPerSecond: 1111111.111111111, VsSnapshot: 1.125},
			{Method: "snapshot generate", Keys: 1000000, DBSize: 1000000, Seconds: 0.3, Runs: []float64{0.3}, KeysPerSecond: 3333333.3333333335, VsSnapshot: 0.375},
			{Method: "snapshot load", Keys: 1000000, DBSize: 1000000, Seconds: 0.5, Runs: []float64{0.5}, KeysPerSecond: 2000000, VsSnapshot: 0.625},
			{Method: "snapshot total", Keys: 1000000, DBSize: 1000000, Seconds: 0.8, Runs: []float64{0.8}, KeysPerSecond: 1250000, VsSnapshot: 1},
		},
	}
}

// TestReportGolden compares the table, the CSV and the JSON of a fixed report
// with testdata; go test -run Golden -update rewrites them.
func TestReportGolden(t *testing.T) {
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer, *bench.Report) error
	}{
		{"table.md", func(b *bytes.Buffer, r *bench.Report) error { return bench.WriteTable(b, r) }},
		{"results.csv", func(b *bytes.Buffer, r *bench.Report) error { return bench.WriteCSV(b, r) }},
		{"results.json", func(b *bytes.Buffer, r *bench.Report) error { return bench.WriteJSON(b, r) }},
	} {
		var got bytes.Buffer
		if err := f.write(&got, fixedReport()); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", f.name)
		if *update {
			if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s differs from %s:\n%s", f.name, golden, got.String())
		}
	}
}

// TestWriteReportReplaces writes a report twice into one directory: the
// files are replaced, and nothing else is left there.
func TestWriteReportReplaces(t *testing.T) {
	dir := t.TempDir()
	for range 2 {
		if err := bench.WriteReport(dir, fixedReport()); err != nil {
			t.Fatal(err)
		}
	}
	checkReportFiles(t, dir, len(fixedReport().Rows))
	if err := bench.WriteReport(filepath.Join(dir, bench.CSVFile, "x"), fixedReport()); err == nil {
		t.Fatal("a report went under a file")
	}
}
