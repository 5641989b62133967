package bench

import (
	"fmt"
	"io"
	"strings"

	"github.com/rdbgen/rdbgen/record"
)

// WriteText writes r for people, as rdbgen bench prints it: what was measured, the table,
// and the directory dir the report files went to ("" for none).
func WriteText(w io.Writer, r *Report, dir string) error {
	var b strings.Builder
	from := ""
	if r.Input != "" {
		from = " of " + r.Input
	}
	fmt.Fprintf(&b, "%d keys%s into %s (%s backend), median of %d run(s)\n\n", r.Keys, from, r.Server, r.Backend, r.Repeat)
	if err := WriteTable(&b, r); err != nil {
		return err
	}
	fmt.Fprintln(&b, "\nvs snapshot: seconds divided by the snapshot total (generate the file, then start Redis on it until it answers with the data)")
	for _, row := range r.Rows {
		if row.Method == SnapshotLoad && row.ServerSeconds > 0 {
			fmt.Fprintf(&b, "snapshot load: %.3fs from starting Redis to its answer, of which the server logged %.3fs loading the file\n", row.Seconds, row.ServerSeconds)
		}
	}
	if dir != "" {
		fmt.Fprintf(&b, "report: %s, %s and %s in %s\n", CSVFile, JSONFile, ChartFile, dir)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Print ends a run of rdbgen bench whose report is r: it writes the report's files into dir
// (see WriteReport; none when dir is ""), prints r to w as JSON with asJSON, for people
// unless quiet, and returns an error when a row failed.
func Print(w io.Writer, r *Report, dir string, asJSON, quiet bool) error {
	if dir != "" {
		if err := WriteReport(dir, r); err != nil {
			return err
		}
	}
	var err error
	switch {
	case asJSON:
		err = WriteJSON(w, r)
	case !quiet:
		err = WriteText(w, r, dir)
	}
	if err != nil {
		return err
	}
	if failed := r.Failed(); failed > 0 {
		return fmt.Errorf("%d of %d rows failed (see their errors in the table)", failed, len(r.Rows))
	}
	return nil
}

// Measure returns what p, a progress report of [Options.Progress], counts, for a progress
// bar of its stage: the keys of the run's stage.
func Measure(p record.Progress) (done, total int64, unit string) {
	return int64(p.Keys), int64(p.Total), "keys"
}
