package encoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
)

// Module values and module AUX data are written as the file they came from held them: the
// module id (its type name and encoding version), then the module's opcode stream through
// its EOF opcode, byte for byte.

// Module opcodes and types (rdb.h).
const (
	typeModule2 = 7    // RDB_TYPE_MODULE_2: a module value in the self-describing form
	opModuleAux = 0xf7 // RDB_OPCODE_MODULE_AUX
	modUInt     = 2    // RDB_MODULE_OPCODE_UINT, before a module AUX record's 'when'
)

// WriteModule writes a module value (type 7): the key, its expiry (absolute Unix ms, 0 for
// none), the module type id and value, the serialized value, which must end with the EOF
// opcode (ErrModuleValue otherwise); the file must hold ModuleValues (else a
// rdb.CannotHoldError naming the key). The module must be loaded in the server that loads the
// file.
func (w *Writer) WriteModule(key []byte, moduleID uint64, value []byte, expireAtMS int64) error {
	if err := w.checkRecord(key, expireAtMS); err != nil {
		return err
	}
	if !w.has.has(rdb.ModuleValues) {
		return w.refuse(key, rdb.ModuleValues)
	}
	if err := checkModuleBody(moduleID, value); err != nil {
		return w.fail(fmt.Errorf("write key %q: %w", key, err))
	}
	w.appendRecordHeader(key, expireAtMS, typeModule2)
	w.buf = AppendModuleObject(w.buf, moduleID, value)
	return w.maybeFlush()
}

// AppendModuleObject appends a module value's object as a file and a DUMP payload hold it
// after the type byte 7: the module id as an RDB length, then body, the opcode stream.
func AppendModuleObject(b []byte, id uint64, body []byte) []byte {
	return append(appendLength(b, id), body...)
}

// WriteModuleAux writes one module's AUX data (opcode 247): the module type id, the UINT
// opcode and when (1 before the keyspace, 2 after: REDISMODULE_AUX_BEFORE_RDB, _AFTER_RDB), then value, the data as
// the module serialized it, as Redis's rdbSaveSingleModuleAux does. The file must hold
// rdb.ModuleAux (else an rdb.CannotHoldError); data not ending with the EOF opcode wraps
// ErrModuleValue. A server loading the file must have the module loaded.
func (w *Writer) WriteModuleAux(moduleID, when uint64, value []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	if !w.has.has(rdb.ModuleAux) {
		return w.fail(fmt.Errorf("module AUX of id %#x: %w", moduleID, w.caps.Refuse(rdb.ModuleAux)))
	}
	if err := checkModuleBody(moduleID, value); err != nil {
		return w.fail(fmt.Errorf("module AUX: %w", err))
	}
	w.buf = appendLength(append(w.buf, opModuleAux), moduleID)
	w.buf = appendLength(append(w.buf, modUInt), when)
	w.buf = append(w.buf, value...)
	w.stats.ModuleAux++
	return w.maybeFlush()
}

// checkModuleBody checks what the writer can of a module's serialized data without the
// module: an id, and the EOF opcode at its end.
func checkModuleBody(id uint64, body []byte) error {
	if id == 0 || len(body) == 0 || body[len(body)-1] != 0 {
		return fmt.Errorf("module id %#x: %w", id, ErrModuleValue)
	}
	return nil
}
