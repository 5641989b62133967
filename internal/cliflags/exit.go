package cliflags

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"
)

// An ExitError tells main the exit status of the error it wraps. With a nil Err it is an
// answer, not a failure: main exits with Code and prints nothing.
type ExitError struct {
	Code int
	Err  error
}

// Error is the error's message, or "exit N" when it carries none.
func (e ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

// Unwrap returns the error wrapped.
func (e ExitError) Unwrap() error { return e.Err }

// ExitCode returns the exit status.
func (e ExitError) ExitCode() int { return e.Code }

// Verdict returns action with the exit statuses of diff(1): 0 when it returns nil, 1 with
// nothing printed when it returns answer (or an error wrapping it), 2 for any other error.
func Verdict(action cli.ActionFunc, answer error) cli.ActionFunc {
	return func(c *cli.Context) error {
		switch err := action(c); {
		case err == nil:
			return nil
		case errors.Is(err, answer):
			return ExitError{Code: 1}
		default:
			return ExitError{Code: 2, Err: err}
		}
	}
}

// UsageExit returns an OnUsageError for a command whose exit statuses carry an answer
// (see Verdict): a flag's usage error, one line (ValueError), exits with code.
func UsageExit(code int) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, _ bool) error {
		return ExitError{Code: code, Err: ValueError(c, err)}
	}
}

// Status returns the exit status main gives err, the error of a run, and the message it
// prints ("" for none): an ExitError's own status, unless the run was interrupted (its
// context cancelled: 130); else 0 for nil, 1 for any other error.
func Status(err error, interrupted bool) (code int, message string) {
	var coded interface{ ExitCode() int }
	switch {
	case err == nil:
		return 0, ""
	case interrupted:
		return 130, err.Error()
	case errors.As(err, &coded) && errors.Unwrap(err) == nil:
		return coded.ExitCode(), ""
	case errors.As(err, &coded):
		return coded.ExitCode(), err.Error()
	}
	return 1, err.Error()
}

// Interrupted replaces a context error with words a user reads; other errors come back as
// they are.
func Interrupted(err error) error { return InterruptedWriting(err, "") }

// InterruptedWriting is Interrupted for a run that writes to out: what it wrote to stdout
// ("-") stays there, incomplete; a file is written only once complete.
func InterruptedWriting(err error, out string) error {
	switch {
	case !errors.Is(err, context.Canceled):
		return err
	case out == "-":
		return errors.New("interrupted; the output on stdout is incomplete")
	}
	return errors.New("interrupted; nothing was written")
}
