package encoder

import "github.com/rdbgen/rdbgen/rdb"

// opFunction2 is the opcode of a function library (RDB_OPCODE_FUNCTION2, Redis 7.0+): the
// library's code follows as one string.
const opFunction2 = 0xf5

// WriteFunction writes a function library: the opcode Redis 7.0's rdbSaveFunctions writes,
// then code as an RDB string (LZF-compressed as other strings are). Redis writes its
// libraries before the first database; a file may hold them anywhere between records. The
// RDB version must hold them (rdb.Functions), else the error wraps rdb.ErrCannotHold (an
// rdb.CannotHoldError). The code's first line must name the library as FUNCTION LOAD wants
// ("#!lua name=mylib"): the Writer does not read it, and a server refuses a file whose
// library does not (package rdbsink checks it).
func (w *Writer) WriteFunction(code []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	if !w.has.has(rdb.Functions) {
		return w.fail(w.caps.Refuse(rdb.Functions))
	}
	w.buf = w.appendString(append(w.buf, opFunction2), code)
	w.stats.Functions++
	return w.maybeFlush()
}
