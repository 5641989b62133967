package server

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/rdbgen/rdbgen/internal/dockercli"
)

// Errors that callers can test for with [errors.Is].
var (
	// ErrDockerUnavailable reports that the docker CLI is not installed or
	// that the engine it talks to does not answer.
	ErrDockerUnavailable = dockercli.ErrUnavailable

	// ErrRedisServerNotFound reports that the redis-server executable of
	// the process backend could not be found.
	ErrRedisServerNotFound = errors.New("server: redis-server not found")

	// ErrLoadRefused reports that the server started, read the dump file,
	// refused it and exited. The error is an [*ExitError] that carries the
	// server's reason and log.
	ErrLoadRefused = errors.New("server: load refused")

	// ErrServerExited reports that the server exited before it began to load
	// the dump file, for example on a bad argument or a port in use. The
	// error is an [*ExitError].
	ErrServerExited = errors.New("server: exited")

	// ErrAppendOnly reports an existing container ([Options.Container])
	// whose server has appendonly on in a way that a restart cannot take
	// over, or that loaded its append-only file instead of the dump file.
	ErrAppendOnly = errors.New("server: appendonly is on")

	// ErrLoadTimeout reports that the server was still loading, or not yet
	// answering, when [Options.LoadTimeout] ran out.
	ErrLoadTimeout = errors.New("server: load timeout")
)

// ExitError reports a server that exited before its dataset was loaded.
// It wraps [ErrLoadRefused] when the server had started to load the dump
// file, and [ErrServerExited] otherwise.
type ExitError struct {
	// Dump is the base name of the dump file, as in "dump.rdb".
	Dump string
	// Reason is the server's own explanation: the log line that tells why it
	// exited, without its timestamp, or "exit status N" when the log has none.
	Reason string
	// Log is everything the server logged.
	Log string
	// Refused tells whether the server exited while loading the dump file.
	Refused bool
}

// Error returns one line, like
// "redis refused dump.rdb: Can't handle RDB format version 12".
func (e *ExitError) Error() string {
	if e.Refused {
		return fmt.Sprintf("redis refused %s: %s", e.Dump, e.Reason)
	}
	return fmt.Sprintf("redis exited before loading %s: %s", e.Dump, e.Reason)
}

// Unwrap returns [ErrLoadRefused] or [ErrServerExited].
func (e *ExitError) Unwrap() error {
	if e.Refused {
		return ErrLoadRefused
	}
	return ErrServerExited
}

// newExitError builds the error for a server that exited with the given log.
// status describes how it exited, for when the log says nothing useful.
func newExitError(dump, log, status string) *ExitError {
	reason := exitReason(log)
	if reason == "" {
		reason = status
	}
	return &ExitError{
		Dump:    dump,
		Reason:  reason,
		Log:     log,
		Refused: strings.Contains(log, "Server initialized"),
	}
}

// logLine matches one line of a Redis or Valkey log:
// "4594:M 30 Nov 2026 08:38:09.118 # Can't handle RDB format version 12".
// The submatches are the level mark (. - * #) and the message.
var logLine = regexp.MustCompile(`^\d+:[A-Z] \d+ \w+ \d+ [\d:.]+ ([.\-*#]) (.*)$`)

// startupNoise lists the prefixes of warning-level lines that every server
// logs, whatever went wrong: they never explain an exit.
var startupNoise = []string{
	"oO0OoO0OoO0Oo",
	"Redis version=",
	"Valkey version=",
	"Configuration loaded",
	"Server initialized",
	"Warning: no config file specified",
	"WARNING",
	"User requested shutdown",
}

// exitReason picks the line of a server log that explains why the server
// exited: the first warning that is not startup noise, followed by the detail
// of an "Internal error in RDB reading ... -> detail" line if there is one.
// A configuration error, which the server prints without timestamps, yields
// its last line and the offending directive.
func exitReason(log string) string {
	var reason, detail, directive, last string
	for line := range strings.Lines(log) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		m := logLine.FindStringSubmatch(line)
		if m == nil {
			if d, ok := strings.CutPrefix(line, ">>> "); ok {
				directive = d
			}
			last = line
			continue
		}
		if m[1] != "#" || hasAnyPrefix(m[2], startupNoise) {
			continue
		}
		switch {
		case reason == "":
			reason = m[2]
		case detail == "" && strings.HasPrefix(m[2], "Internal error in RDB reading"):
			if _, d, ok := strings.Cut(m[2], "-> "); ok {
				detail = d
			}
		}
	}
	switch {
	case reason != "" && detail != "":
		return reason + " (" + detail + ")"
	case reason != "":
		return reason
	case directive != "" && last != "":
		return last + ": " + directive
	}
	return last
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
