// Package bar draws the progress bars of rdbgen's commands on a terminal, from the progress
// callbacks of the packages. schollz/progressbar is used because it is small, maintained,
// throttles its redraws and draws rate and ETA, which is all a long run needs.
package bar

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/rdbgen/rdbgen/record"
)

// IsTerminal reports whether w is a terminal, where progress bars belong.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// New returns a progress bar on w for total items, or nil when w is not a terminal or quiet
// is set.
func New(w io.Writer, total int64, what string, quiet bool) *progressbar.ProgressBar {
	if quiet || !IsTerminal(w) {
		return nil
	}
	return Start(w, total, what)
}

// Start returns a progress bar on w for total items, its clock started: a bar starts it at
// its first update otherwise, and showed the rate of the first update over the microseconds
// since (10M keys: "116373/10000000, 5369739756 keys/s").
func Start(w io.Writer, total int64, what string) *progressbar.ProgressBar {
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

// Keys returns a progress callback that draws the keys of total (0: unknown) on w, and the
// function that ends the bar; progress is nil when there is no bar (see New).
func Keys(w io.Writer, total int64, quiet bool) (progress func(record.Progress), done func()) {
	return of(w, total, "keys", quiet, func(p record.Progress) int64 { return int64(p.Keys) })
}

// Bytes is Keys for the bytes read of a file of size bytes.
func Bytes(w io.Writer, size int64, quiet bool) (progress func(record.Progress), done func()) {
	return of(w, size, "bytes", quiet, func(p record.Progress) int64 { return p.Bytes })
}

func of(w io.Writer, total int64, what string, quiet bool, n func(record.Progress) int64) (func(record.Progress), func()) {
	bar := New(w, total, what, quiet)
	if bar == nil {
		return nil, func() {}
	}
	return func(p record.Progress) { _ = bar.Set64(n(p)) }, func() { _ = bar.Finish() }
}
