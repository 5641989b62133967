package encoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// Module values and module AUX data are written as the file they came from held them (see
// record.ModuleAux): the module id, then the module's opcode stream through its EOF
// opcode, byte for byte.

// Module opcodes and types (rdb.h).
const (
	typeModule2 = 7    // RDB_TYPE_MODULE_2: a module value in the self-describing form
	opModuleAux = 0xf7 // RDB_OPCODE_MODULE_AUX
	modUInt     = 2    // RDB_MODULE_OPCODE_UINT, before a module AUX record's 'when'
)

// writeModule writes a module value (type 7): the key, its expiry, the module id and the
// serialized value, which must end with the EOF opcode (record.ErrModuleValue otherwise);
// the file must hold ModuleValues (else a CannotHoldError naming the key).
// The module must be loaded in the server that loads the file.
func (w *Writer) writeModule(h *record.Header) error {
	if err := w.checkRecord(h.Key, h.ExpireAtMS); err != nil {
		return err
	}
	if !w.has.has(ModuleValues) {
		return w.refuse(h.Key, ModuleValues)
	}
	if err := checkModuleBody(h.ModuleID, h.Value); err != nil {
		return w.fail(fmt.Errorf("write key %q: %w", h.Key, err))
	}
	w.appendRecordHeader(h.Key, h.ExpireAtMS, typeModule2)
	w.buf = AppendModuleObject(w.buf, h.ModuleID, h.Value)
	return w.maybeFlush()
}

// AppendModuleObject appends a module value's object as a file and a DUMP payload hold it
// after the type byte 7: the module id as an RDB length, then body, the opcode stream.
func AppendModuleObject(b []byte, id uint64, body []byte) []byte {
	return append(appendLength(b, id), body...)
}

// WriteModuleAux writes one module's AUX data (opcode 247): the module id, the UINT opcode
// and 'when', then the data as it came, as Redis's rdbSaveSingleModuleAux does. The file
// must hold ModuleAux (else a CannotHoldError naming the module); data not ending with
// the EOF opcode wraps record.ErrModuleValue. A server loading the file must have the
// module loaded.
func (w *Writer) WriteModuleAux(a *record.ModuleAux) error {
	if err := w.usable(); err != nil {
		return err
	}
	if !w.has.has(ModuleAux) {
		return w.fail(fmt.Errorf("%s: %w", a.Label(), w.caps.Refuse(ModuleAux)))
	}
	if err := checkModuleBody(a.ModuleID, a.Value); err != nil {
		return w.fail(fmt.Errorf("%s: %w", a.Label(), err))
	}
	w.buf = appendLength(append(w.buf, opModuleAux), a.ModuleID)
	w.buf = appendLength(append(w.buf, modUInt), a.When)
	w.buf = append(w.buf, a.Value...)
	w.stats.ModuleAux++
	return w.maybeFlush()
}

// checkModuleBody checks what the writer can of a module's serialized data without the
// module: an id, and the EOF opcode at its end.
func checkModuleBody(id uint64, body []byte) error {
	if id == 0 || len(body) == 0 || body[len(body)-1] != 0 {
		return fmt.Errorf("module %q: %w", record.ModuleName(id), record.ErrModuleValue)
	}
	return nil
}
