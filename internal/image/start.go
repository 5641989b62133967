package image

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/rdbgen/rdbgen/rebase"
)

// Entrypoint is what an image built with ExpiryFromStart runs when its container starts: it
// moves the expiries of the dump at path to now (RebaseAtStart), reports the line that tells
// it, then replaces the process with command, found in PATH. It returns only on an error; a
// command not found is refused before the dump is touched.
func Entrypoint(ctx context.Context, path string, command []string, report func(string)) error {
	exe, err := exec.LookPath(command[0])
	if err != nil {
		return fmt.Errorf("command %q: %w", command[0], err)
	}
	msg, err := RebaseAtStart(ctx, path, time.Now())
	if err != nil {
		return err
	}
	report(msg)
	if err := syscall.Exec(exe, command, os.Environ()); err != nil {
		return fmt.Errorf("exec %s: %w", exe, err)
	}
	return nil // not reached: the command runs in this process
}

// RebaseAtStart moves the expiries of the dump at path from its creation time to now, in
// place, as the entrypoint of an image built with ExpiryFromStart does before it runs the
// server, and returns the line that tells what it did. A missing dump (a volume mounted over
// the data directory) is left alone, and the line says so.
func RebaseAtStart(ctx context.Context, path string, now time.Time) (string, error) {
	res, err := rebase.File(ctx, path, now)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("no %s: expiries left alone", path), nil
	case err != nil:
		return "", fmt.Errorf("rebase %s: %w", path, err)
	}
	return fmt.Sprintf("moved the expiries of %d keys and %d fields of %s by %s (from %s to %s) in %s",
		res.Moved.Keys, res.Moved.Fields, path, time.Duration(res.Shift.ShiftMS)*time.Millisecond,
		res.Shift.From.Format(time.RFC3339), res.Shift.To.Format(time.RFC3339), time.Since(now).Round(time.Millisecond)), nil
}
