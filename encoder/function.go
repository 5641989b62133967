package encoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// opFunction2 is the opcode of a function library (RDB_OPCODE_FUNCTION2, Redis 7.0+): the
// library's code follows as one string.
const opFunction2 = 0xf5

// WriteFunction writes a function library: the opcode Redis 7.0's rdbSaveFunctions writes,
// then code as an RDB string (LZF-compressed as other strings are). Redis writes its
// libraries before the first database; a file may hold them anywhere between records. The
// RDB version must hold them (Functions), else the error names the library and wraps
// ErrCannotHold (a CannotHoldError);
// code that names no library is an error wrapping record.ErrLibraryCode (FUNCTION LOAD, and so a
// server loading the file, refuses it).
func (w *Writer) WriteFunction(code []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	if !w.has.has(Functions) {
		return w.fail(fmt.Errorf("%s: %w", record.LibraryLabel(code), w.caps.Refuse(Functions)))
	}
	if _, err := record.LibraryName(code); err != nil {
		return w.fail(fmt.Errorf("%s: %w", record.LibraryLabel(code), err))
	}
	w.buf = w.appendString(append(w.buf, opFunction2), code)
	w.stats.Functions++
	return w.maybeFlush()
}
