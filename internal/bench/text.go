package bench

import (
	"fmt"
	"io"
	"strings"
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
