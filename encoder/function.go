package encoder

import (
	"bytes"
	"errors"
	"fmt"
)

// opFunction2 is the opcode of a function library (RDB_OPCODE_FUNCTION2, Redis 7.0+): the
// library's code follows as one string.
const opFunction2 = 0xf5

// FunctionsVersion is the first RDB version that holds function libraries (Redis 7.0).
const FunctionsVersion = 10

// Errors of function libraries, for errors.Is.
var (
	// ErrLibraryCode: a library's code does not begin with the line that names it, as
	// FUNCTION LOAD requires ("#!lua name=mylib").
	ErrLibraryCode = errors.New("function library code without a valid first line (want #!<engine> name=<name>)")
	// ErrFunctions: the RDB version written has no function libraries (below 10).
	ErrFunctions = errors.New("encoder: function libraries need RDB 10 (Redis 7.0+)")
)

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

// WriteFunction writes a function library: the opcode Redis 7.0's rdbSaveFunctions writes,
// then code as an RDB string (LZF-compressed as other strings are). Redis writes its
// libraries before the first database; a file may hold them anywhere between records. The
// RDB version must be 10 or later, else the error wraps ErrFunctions and names the library;
// code that names no library is an error wrapping ErrLibraryCode (FUNCTION LOAD, and so a
// server loading the file, refuses it).
func (w *Writer) WriteFunction(code []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	if w.version < FunctionsVersion {
		return w.fail(fmt.Errorf("%s: %w, not %d", LibraryLabel(code), ErrFunctions, w.version))
	}
	if _, err := LibraryName(code); err != nil {
		return w.fail(fmt.Errorf("%s: %w", LibraryLabel(code), err))
	}
	w.buf = w.appendString(append(w.buf, opFunction2), code)
	w.stats.Functions++
	return w.maybeFlush()
}
