package cliflags

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestStatus: the exit status and message main gives each error, and Verdict's statuses.
func TestStatus(t *testing.T) {
	errAnswer := errors.New("differ")
	verdict := func(err error) error {
		return Verdict(func(*cli.Context) error { return err }, errAnswer)(nil)
	}
	trouble := errors.New("no such file")
	for _, tc := range []struct {
		name        string
		err         error
		interrupted bool
		code        int
		msg         string
	}{
		{"nil", nil, false, 0, ""},
		{"error", trouble, false, 1, "no such file"},
		{"interrupted", trouble, true, 130, "no such file"},
		{"coded, interrupted", ExitError{Code: 2, Err: trouble}, true, 130, "no such file"},
		{"verdict: same", verdict(nil), false, 0, ""},
		{"verdict: answer", verdict(errAnswer), false, 1, ""},
		{"verdict: wrapped answer", verdict(fmt.Errorf("x: %w", errAnswer)), false, 1, ""},
		{"verdict: trouble", verdict(trouble), false, 2, "no such file"},
		{"coded, wrapped", fmt.Errorf("ctx: %w", ExitError{Code: 3}), false, 3, "ctx: exit 3"},
	} {
		code, msg := Status(tc.err, tc.interrupted)
		if code != tc.code || msg != tc.msg {
			t.Errorf("%s: Status = %d %q, want %d %q", tc.name, code, msg, tc.code, tc.msg)
		}
	}
	if err := verdict(trouble); !errors.Is(err, trouble) {
		t.Errorf("Verdict's error %v does not wrap the action's", err)
	}
}

func TestInterrupted(t *testing.T) {
	other := errors.New("other")
	if err := Interrupted(fmt.Errorf("read: %w", context.Canceled)); err == nil || err.Error() != "interrupted; nothing was written" {
		t.Errorf("Interrupted(canceled) = %v", err)
	}
	if err := Interrupted(other); err != other {
		t.Errorf("Interrupted(other) = %v, want it as it is", err)
	}
	if err := Interrupted(nil); err != nil {
		t.Errorf("Interrupted(nil) = %v", err)
	}
	if err := InterruptedWriting(context.Canceled, "-"); err == nil || err.Error() != "interrupted; the output on stdout is incomplete" {
		t.Errorf("InterruptedWriting(canceled, -) = %v", err)
	}
	if err := InterruptedWriting(context.Canceled, "out.json"); err == nil || err.Error() != "interrupted; nothing was written" {
		t.Errorf("InterruptedWriting(canceled, out.json) = %v", err)
	}
}

// TestOneLineErrors: a bad value of a subcommand's flag is one line naming the flag, and
// the app does not exit.
func TestOneLineErrors(t *testing.T) {
	a := &cli.App{Name: "t", Writer: io.Discard, ErrWriter: io.Discard,
		Commands: []*cli.Command{{Name: "spec", Subcommands: []*cli.Command{{
			Name:   "check",
			Flags:  []cli.Flag{&cli.IntFlag{Name: "n"}},
			Action: func(*cli.Context) error { return nil },
		}}}}}
	OneLineErrors(a)
	err := a.Run([]string{"t", "spec", "check", "--n", "x"})
	if err == nil || err.Error() != `--n "x": want a whole number` {
		t.Errorf("error %v, want the one-line value error", err)
	}
}
