package decoder

import "fmt"

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
	return rd.skipModuleValue(id)
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
