package decoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// Modules: a MODULE_AUX payload and a module value of type 7 are self-describing since RDB 9
// (a sequence of typed opcodes ending with EOF), so they can be skipped; their content is the
// module's own and cannot be read.

// skipModuleAux skips a MODULE_AUX payload: module id, when opcode, when, then the
// self-describing value every module writes since RDB 9.
func (rd *Reader) skipModuleAux() error {
	in := rd.in
	id, err := in.plainLength()
	if err != nil {
		return err
	}
	if _, err := in.plainLength(); err != nil { // when_opcode
		return err
	}
	if _, err := in.plainLength(); err != nil { // when
		return err
	}
	if err := rd.skipModuleValue(id); err != nil {
		return err
	}
	rd.stats.ModuleAux = countModule(rd.stats.ModuleAux, id)
	return nil
}

// A ModuleSink is a record.Sink told of each module value the reader skips (see
// Options.SkipModules): the record of key in the open database, of the module type named
// module, expiring at exp (Unix ms, 0 for none).
type ModuleSink interface {
	SkipModule(key []byte, module string, exp int64) error
}

// moduleValue skips the module value of type t (6 or 7) whose module id is read, or fails.
func (rd *Reader) moduleValue(t byte, id uint64, exp int64, sink record.Sink) error {
	switch {
	case t == 6:
		return fmt.Errorf("%w of module type %s in the pre-release format (type 6, Redis 4.0 release candidates): "+
			"it can be neither read nor skipped, and no Redis since 4.0 loads it", ErrModule, ModuleName(id))
	case !rd.opts.SkipModules:
		return fmt.Errorf("%w of module type %s (encoding version %d): rdbgen cannot read module data; skip it (convert --skip-unsupported) or drop its database",
			ErrModule, ModuleName(id), id&1023)
	}
	if err := rd.skipModuleValue(id); err != nil {
		return err
	}
	rd.stats.SkippedModules++
	rd.stats.Modules = countModule(rd.stats.Modules, id)
	if ms, ok := sink.(ModuleSink); ok {
		return s(ms.SkipModule(rd.key, ModuleName(id), exp))
	}
	return nil
}

// countModule counts one more value of the module type id in m, made if nil.
func countModule(m map[string]uint64, id uint64) map[string]uint64 {
	if m == nil {
		m = map[string]uint64{}
	}
	m[ModuleName(id)]++
	return m
}

// Module value opcodes (RDB_MODULE_OPCODE_*).
const (
	modEOF = iota
	modSInt
	modUInt
	modFloat
	modDouble
	modString
)

func (rd *Reader) skipModuleValue(id uint64) error {
	in := rd.in
	for {
		op, err := in.plainLength()
		if err != nil {
			return err
		}
		switch op {
		case modEOF:
			return nil
		case modSInt, modUInt:
			_, err = in.plainLength()
		case modFloat:
			err = in.skip(4)
		case modDouble:
			err = in.skip(8)
		case modString:
			err = in.skipStr()
		default:
			err = fmt.Errorf("%w: module %s: unknown value opcode %d", ErrCorrupt, ModuleName(id), op)
		}
		if err != nil {
			return err
		}
	}
}

// ModuleName returns the 9-character name of a module type from its RDB module id.
func ModuleName(id uint64) string {
	const cset = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	var name [9]byte
	id >>= 10
	for j := 8; j >= 0; j-- {
		name[j] = cset[id&63]
		id >>= 6
	}
	return string(name[:])
}
