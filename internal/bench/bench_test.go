package bench_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image"
	_ "image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/bench"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/spec"
)

// processServers starts each fresh server as a local redis-server.
func processServers(t *testing.T) server.Options {
	t.Helper()
	redistest.RedisServer(t)
	return server.Options{Backend: server.BackendProcess}
}

// TestRunEveryRow benches a small dataset through every row and writes the
// report: the table, the CSV, the JSON and a chart that decodes as a PNG.
func TestRunEveryRow(t *testing.T) {
	d := &dataset.Config{Count: 2000, KeyPrefix: "b:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 40, Seed: 5, DB: 3,
		TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: time.Now().UnixMilli()}
	stages := map[string]bool{}
	opts := bench.Options{Server: processServers(t), Workers: []int{5, 1}, Batch: 300, Progress: func(p record.Progress) {
		stages[p.Stage] = true
		if !strings.Contains(p.Stage, " (run 1/1): ") || p.Total != d.Count || p.Keys > p.Total {
			t.Errorf("progress %+v", p)
		}
	}}
	r, err := bench.Run(t.Context(), d, opts)
	if err != nil {
		t.Fatal(err)
	}
	wantRows := []string{"sequential", "parallel 1", "parallel 5", "pipeline 1/300", "mass", bench.CLIPipe,
		bench.SnapshotGenerate, bench.SnapshotLoad, bench.SnapshotTotal}
	if len(r.Rows) != len(wantRows) {
		t.Fatalf("%d rows, want %d: %+v", len(r.Rows), len(wantRows), r.Rows)
	}
	total := r.Rows[len(r.Rows)-1]
	for i, row := range r.Rows {
		if row.Label() != wantRows[i] {
			t.Errorf("row %d is %q, want %q", i, row.Label(), wantRows[i])
		}
		if row.Failed() || row.DBSize != 2000 || row.Keys != 2000 || row.Seconds <= 0 || len(row.Runs) != 1 ||
			row.KeysPerSecond != 2000/row.Seconds || row.VsSnapshot != row.Seconds/total.Seconds {
			t.Errorf("row %+v", row)
		}
	}
	if gen, load := r.Rows[6], r.Rows[7]; total.Seconds != gen.Seconds+load.Seconds {
		t.Errorf("total %v is not generate %v + load %v", total.Seconds, gen.Seconds, load.Seconds)
	}
	// The server's own load time is part of the time it took to answer.
	if load := r.Rows[7]; load.ServerSeconds > load.Seconds || r.Rows[8].ServerSeconds != 0 {
		t.Errorf("server seconds: load row %+v, total row %+v", load, r.Rows[8])
	}
	if r.Backend != server.BackendProcess || !strings.HasPrefix(r.Server, "redis ") || r.Repeat != 1 || r.Dataset != d {
		t.Errorf("report %+v", r)
	}
	for _, row := range []string{"parallel 5", "mass", bench.CLIPipe} {
		if !stages[bench.RunStage(row, 1, 1, bench.StageStart)] || !stages[bench.RunStage(row, 1, 1, bench.StageLoad)] {
			t.Errorf("progress of %s: %v", row, stages)
		}
	}
	if !stages[bench.RunStage(bench.Snapshot, 1, 1, bench.StageGenerate)] || !stages[bench.RunStage(bench.Snapshot, 1, 1, bench.StageRestart)] {
		t.Errorf("progress of the snapshot: %v", stages)
	}

	var table bytes.Buffer
	if err := bench.WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	if len(lines) != 2+len(wantRows) || lines[0] != "| method | workers/batch | keys | seconds | keys/s | vs snapshot |" ||
		!strings.HasPrefix(lines[2], "| sequential | 1 | 2000 | ") || !strings.HasSuffix(lines[len(lines)-1], " | 1.00x |") {
		t.Fatalf("table:\n%s", table.String())
	}

	dir := filepath.Join(t.TempDir(), "bench-out")
	if err := bench.WriteReport(dir, r); err != nil {
		t.Fatal(err)
	}
	checkReportFiles(t, dir, len(wantRows))
}

// checkReportFiles reads the files of a report directory back.
func checkReportFiles(t *testing.T, dir string, rows int) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, bench.CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil || len(records) != 1+rows || records[0][0] != "method" || records[1][0] != "sequential" {
		t.Fatalf("CSV: %v %q", err, records)
	}

	b, err := os.ReadFile(filepath.Join(dir, bench.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var back bench.Report
	if err := json.Unmarshal(b, &back); err != nil || len(back.Rows) != rows || back.Rows[0].Seconds <= 0 {
		t.Fatalf("JSON: %v %+v", err, back)
	}

	png, err := os.Open(filepath.Join(dir, bench.ChartFile))
	if err != nil {
		t.Fatal(err)
	}
	defer png.Close()
	img, format, err := image.Decode(png)
	if err != nil || format != "png" || img.Bounds().Dx() < 500 {
		t.Fatalf("chart: %v, format %q", err, format)
	}
	if es, _ := os.ReadDir(dir); len(es) != 3 {
		t.Fatalf("report directory holds %d files, want 3", len(es))
	}
}

// TestRunRepeat runs each selected row three times: a row shows the median.
func TestRunRepeat(t *testing.T) {
	// Enough keys for the server to log a load time of a few ms.
	d := &dataset.Config{Count: 50000, KeyPrefix: "key", KeyStart: 100000001}
	r, err := bench.Run(t.Context(), d, bench.Options{Server: processServers(t), Methods: []string{"snapshot", "mass"}, Repeat: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 4 || r.Rows[0].Method != "mass" || r.Repeat != 3 {
		t.Fatalf("rows %+v", r.Rows)
	}
	if load := r.Rows[2]; load.Method != bench.SnapshotLoad || load.ServerSeconds <= 0 || load.ServerSeconds > load.Seconds {
		t.Fatalf("load row %+v: want the server's own load time, within the time to ready", load)
	}
	for _, row := range r.Rows {
		if len(row.Runs) != 3 || row.Failed() {
			t.Fatalf("row %+v", row)
		}
		if mid := slices.Sorted(slices.Values(row.Runs))[1]; row.Seconds != mid {
			t.Fatalf("row %s: seconds %v, want the median of %v", row.Method, row.Seconds, row.Runs)
		}
	}
}

// TestRunCollectionsAndSpecs: every row benches any type, and spec files; the RESP stream
// of redis-cli --pipe loads the same keys as the others.
func TestRunCollectionsAndSpecs(t *testing.T) {
	src, err := os.ReadFile("../../examples/spring-cache.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse("spring-cache.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Params
	p.BaseTimeMS = time.Now().UnixMilli()
	if err := s.SetParams(p); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		src  record.Source
		keys uint64
	}{
		{"hash", &dataset.Config{Count: 300, KeyPrefix: "h", Type: record.Hash, Members: dataset.Range{Min: 1, Max: 20}, Seed: 2}, 300},
		{"spec", s, s.Keys()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := bench.Run(t.Context(), tt.src, bench.Options{Server: processServers(t), Input: tt.name,
				Methods: []string{string(loader.Pipeline), string(loader.Mass), bench.CLIPipe, bench.Snapshot}})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Rows) != 6 || r.Keys != tt.keys || r.Input != tt.name {
				t.Fatalf("report %+v", r)
			}
			for _, row := range r.Rows {
				if row.Failed() || row.DBSize != int64(tt.keys) {
					t.Errorf("row %+v", row)
				}
			}
		})
	}
}
