package record

import (
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/encoder"
)

// A FunctionSink is a Sink that also carries function libraries (Redis 7.0+): an RDB file
// of version 10 or later, the commands for a server that has functions, and every wrapper
// that passes records on. Libraries are not keys: they belong to no database, and filters
// keep them. A source writes them where it meets them; a dump holds them before its first
// database.
type FunctionSink interface {
	Sink
	// WriteFunction writes one library: its code, whose first line names it
	// ("#!lua name=mylib", see encoder.LibraryName).
	WriteFunction(code []byte) error
}

// ErrFunctionsUnsupported is returned by WriteFunction for a Sink that cannot carry
// function libraries.
var ErrFunctionsUnsupported = errors.New("this output cannot carry function libraries")

// WriteFunction writes the function library code into s, when s is a FunctionSink. Any
// other Sink would lose it: the error wraps ErrFunctionsUnsupported and names the library.
// A wrapper's WriteFunction passes the library on with it.
func WriteFunction(s Sink, code []byte) error {
	if fs, ok := s.(FunctionSink); ok {
		return fs.WriteFunction(code)
	}
	return fmt.Errorf("%s: %w", encoder.LibraryLabel(code), ErrFunctionsUnsupported)
}

// *encoder.Writer carries function libraries.
var _ FunctionSink = (*encoder.Writer)(nil)
