package record

import (
	"bytes"
	"errors"
	"fmt"
)

// Errors of function libraries, for errors.Is.
var (
	// ErrFunctionsUnsupported: the Sink cannot carry function libraries.
	ErrFunctionsUnsupported = errors.New("record: this output cannot carry function libraries")
	// ErrLibraryCode: a library's first line does not name it.
	ErrLibraryCode = errors.New("record: function library code without a valid first line (want #!<engine> name=<name>)")
)

// RefuseFunctions is embedded by a Sink that cannot carry function libraries: its
// WriteFunction names the library and wraps ErrFunctionsUnsupported.
type RefuseFunctions struct{}

// WriteFunction refuses the library.
func (RefuseFunctions) WriteFunction(code []byte) error {
	return fmt.Errorf("%s: %w", LibraryLabel(code), ErrFunctionsUnsupported)
}

// LibraryName returns the name a function library gives itself on the first line of its
// code, "#!lua name=mylib", read as Redis 7.0's FUNCTION LOAD reads it: the line starts
// with "#!" and the engine, ends at the first newline, and holds, separated by blanks,
// exactly one name=… (the key in any case) and nothing else. The name is returned as
// written; the server checks its characters. A first line that is not so is an error
// wrapping ErrLibraryCode.
func LibraryName(code []byte) (string, error) {
	line, _, found := bytes.Cut(code, []byte("\n"))
	if !bytes.HasPrefix(line, []byte("#!")) || !found {
		return "", ErrLibraryCode
	}
	parts := bytes.Fields(line)
	var name []byte
	for _, p := range parts[1:] {
		if len(p) < 5 || !bytes.EqualFold(p[:5], []byte("name=")) {
			return "", fmt.Errorf("%w: unknown part %q", ErrLibraryCode, p)
		}
		if name != nil {
			return "", fmt.Errorf("%w: the name is given twice", ErrLibraryCode)
		}
		name = p[5:]
	}
	if name == nil {
		return "", fmt.Errorf("%w: no name=", ErrLibraryCode)
	}
	if len(name) == 0 {
		return "", fmt.Errorf("%w: empty name", ErrLibraryCode)
	}
	return string(name), nil
}

// LibraryLabel names a function library in messages: `function library "mylib"`, or, when
// its first line names none (see LibraryName), that line, quoted and cut short.
func LibraryLabel(code []byte) string {
	if name, err := LibraryName(code); err == nil {
		return fmt.Sprintf("function library %q", name)
	}
	line, _, _ := bytes.Cut(code, []byte("\n"))
	if len(line) > 60 {
		line = append(line[:60:60], "…"...)
	}
	return fmt.Sprintf("function library with first line %q", line)
}
