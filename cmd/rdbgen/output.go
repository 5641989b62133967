package main

import (
	"encoding/json"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal, where progress bars belong.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newBar returns a progress bar on w for total items, or nil when w is not a terminal or
// quiet is set. schollz/progressbar is used because it is small, maintained, throttles its
// redraws and draws rate and ETA, which is all a long generation needs.
func newBar(w io.Writer, total int64, what string, quiet bool) *progressbar.ProgressBar {
	if quiet || !isTerminal(w) {
		return nil
	}
	return startBar(w, total, what)
}

// startBar returns a progress bar on w for total items, its clock started: a bar starts it
// at its first update otherwise, and showed the rate of the first update over the
// microseconds since (10M keys: "116373/10000000, 5369739756 keys/s").
func startBar(w io.Writer, total int64, what string) *progressbar.ProgressBar {
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(what),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionFullWidth(),
	)
	bar.StartWithoutRender()
	return bar
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
