package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/bench/chart"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
)

// The files WriteReport writes.
const (
	CSVFile   = "results.csv"
	JSONFile  = "results.json"
	ChartFile = "bench.png"
)

// WriteTable writes the report as a Markdown table:
//
//	| method | workers/batch | keys | seconds | keys/s | vs snapshot |
//
// A failed row shows FAILED and its reason instead of figures.
func WriteTable(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString("| method | workers/batch | keys | seconds | keys/s | vs snapshot |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, row := range r.Rows {
		wb := row.WorkersBatch()
		if wb == "" {
			wb = "-"
		}
		if row.Failed() {
			fmt.Fprintf(&b, "| %s | %s | %d | FAILED | - | %s |\n", row.Method, wb, row.Keys, strings.ReplaceAll(row.Error, "|", `\|`))
			continue
		}
		vs := "-"
		if row.VsSnapshot > 0 {
			vs = fmt.Sprintf("%.2fx", row.VsSnapshot)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %.3f | %.0f | %s |\n", row.Method, wb, row.Keys, row.Seconds, row.KeysPerSecond, vs)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes one line per row, with a header line.
func WriteCSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"method", "workers", "batch", "keys", "dbsize", "seconds", "keys_per_second", "vs_snapshot", "runs", "error"})
	float := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	for _, row := range r.Rows {
		runs := make([]string, len(row.Runs))
		for i, s := range row.Runs {
			runs[i] = float(s)
		}
		_ = cw.Write([]string{
			row.Method, strconv.Itoa(row.Workers), strconv.Itoa(row.Batch),
			strconv.FormatUint(row.Keys, 10), strconv.FormatInt(row.DBSize, 10),
			float(row.Seconds), float(row.KeysPerSecond), float(row.VsSnapshot),
			strings.Join(runs, " "), row.Error,
		})
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteChart draws, as a PNG bar chart, the keys/s of each way to a server
// holding the data: the online rows, and the snapshot total in a second
// colour. (The snapshot's generate and load rows are parts of its total.)
func WriteChart(w io.Writer, r *Report) error {
	c := &chart.Chart{
		Title:  fmt.Sprintf("rdbgen bench: %d keys into %s, median of %d", r.Keys, r.Server, r.Repeat),
		XLabel: "keys/s to a server holding the data (higher is better)",
	}
	for _, row := range r.Rows {
		if row.Method == SnapshotGenerate || row.Method == SnapshotLoad {
			continue
		}
		bar := chart.Bar{Label: row.Label(), Value: row.KeysPerSecond, Highlight: !row.isOnline()}
		switch {
		case row.Failed():
			bar.Note = "FAILED"
		case row.VsSnapshot > 0:
			bar.Note = fmt.Sprintf("%s keys/s (%.3gs, %.2fx)", chart.Short(row.KeysPerSecond), row.Seconds, row.VsSnapshot)
		default:
			bar.Note = fmt.Sprintf("%s keys/s (%.3gs)", chart.Short(row.KeysPerSecond), row.Seconds)
		}
		c.Bars = append(c.Bars, bar)
	}
	return c.WritePNG(w)
}

// isOnline tells whether the row is a loader's rather than the snapshot's.
func (r Row) isOnline() bool { return r.Workers > 0 }

// WriteReport writes results.csv, results.json and bench.png into dir,
// making it if needed. Each file is replaced whole or not at all.
func WriteReport(dir string, r *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer, *Report) error
	}{{CSVFile, WriteCSV}, {JSONFile, WriteJSON}, {ChartFile, WriteChart}} {
		var buf bytes.Buffer
		if err := f.write(&buf, r); err != nil {
			return fmt.Errorf("write report %s: %w", f.name, err)
		}
		if err := writeFile(filepath.Join(dir, f.name), buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// writeFile replaces the file at path with data, atomically.
func writeFile(path string, data []byte) error {
	f, err := atomicfile.Create(path, true)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}
