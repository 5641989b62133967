package decoder

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/rdbgen/rdbgen/rdb/internal/lzf"
	"github.com/rdbgen/rdbgen/record"
)

// maxModuleString bounds a string inside a module value, as input.readInto bounds others.
const maxModuleString = math.MaxInt32 * 16

// Modules. A module value of type 7 and a module AUX record (opcode 247) are
// self-describing since RDB 8 and 9: after the module id, a sequence of values each tagged
// by an opcode, ending with the EOF opcode, which Redis's rdbLoadCheckModuleValue (rdb.c)
// walks without the module. The reader walks it the same way and passes the bytes on as the
// file holds them (a string inside stays LZF-compressed if it was): a module value as a
// key of type record.Module, module AUX as record.ModuleAux.

// Module value opcodes (RDB_MODULE_OPCODE_*, rdb.h).
const (
	modEOF    = 0
	modSInt   = 1 // a length-encoded integer (RM_SaveSigned writes UINT)
	modUInt   = 2 // a length-encoded integer
	modFloat  = 3 // 4 bytes, binary
	modDouble = 4 // 8 bytes, binary
	modString = 5 // an RDB string: raw, integer or LZF
)

// moduleOpNames name the opcodes in messages.
var moduleOpNames = [...]string{"EOF", "SINT", "UINT", "FLOAT", "DOUBLE", "STRING"}

// errModuleOpcode is the damage of an opcode a module value cannot hold.
var errModuleOpcode = fmt.Errorf("%w: unknown module value opcode", ErrCorrupt)

// moduleAux reads a module AUX record (rdbLoad, RDB_OPCODE_MODULE_AUX): module id, the UINT
// opcode, when, then the module's self-describing data, and passes it to sink.
func (rd *Reader) moduleAux(sink record.Sink) error {
	in := rd.in
	id, err := rd.moduleID("module AUX data")
	if err != nil {
		return err
	}
	op, err := in.plainLength()
	if err != nil {
		return err
	}
	if op != modUInt {
		return fmt.Errorf("%w: module AUX of %q: the opcode before 'when' is %d, not UINT (2)", ErrCorrupt, record.ModuleName(id), op)
	}
	when, err := in.plainLength()
	if err != nil {
		return err
	}
	if rd.a, err = rd.moduleBody(rd.a[:0], id); err != nil {
		return err
	}
	if rd.stats.ModuleAux == nil {
		rd.stats.ModuleAux = map[string]uint64{}
	}
	rd.stats.ModuleAux[record.ModuleName(id)]++
	aux := record.ModuleAux{ModuleID: id, When: when, Value: rd.a}
	return s(sink.WriteModuleAux(&aux))
}

// moduleID reads the module type id of what (a module value, module AUX data). Id 0 is
// damage: no module type has it (Redis's moduleTypeEncodeId gives 0 for an invalid name),
// record.Check refuses a module value without one, and the writer both.
func (rd *Reader) moduleID(what string) (uint64, error) {
	id, err := rd.in.plainLength()
	if err == nil && id == 0 {
		err = fmt.Errorf("%w: %s of module id 0, which no module type has", ErrCorrupt, what)
	}
	return id, err
}

// moduleValue reads the module value of type t (6 or 7), after its module id, and opens it
// in sink as a key whole in its header.
func (rd *Reader) moduleValue(t byte, id uint64, exp int64, sink record.Sink) error {
	if t == 6 {
		return fmt.Errorf("%w of module type %s in the pre-release format (type 6, Redis 4.0 release candidates): "+
			"it describes nothing of itself, so it can be neither read nor carried, and no Redis since 4.0 loads it", ErrModule, record.ModuleName(id))
	}
	var err error
	if rd.b, err = rd.moduleBody(rd.b[:0], id); err != nil {
		return err
	}
	rd.stats.Keys++
	if rd.stats.Modules == nil {
		rd.stats.Modules = map[string]uint64{}
	}
	rd.stats.Modules[record.ModuleName(id)]++
	return rd.open(sink, record.Header{Key: rd.key, Type: record.Module, Value: rd.b, ModuleID: id, ExpireAtMS: exp})
}

// moduleBody appends to dst the opcode stream of the module type id, as the file holds it,
// through its EOF opcode. An unknown opcode is damage naming it and the module.
func (rd *Reader) moduleBody(dst []byte, id uint64) ([]byte, error) {
	for {
		at := rd.in.offset()
		op, b, err := rd.rawLength(dst)
		if err != nil {
			return b, err
		}
		dst = b
		switch op {
		case modEOF:
			return dst, nil
		case modSInt, modUInt:
			_, dst, err = rd.rawLength(dst)
		case modFloat:
			dst, err = rd.raw(dst, 4)
		case modDouble:
			dst, err = rd.raw(dst, 8)
		case modString:
			dst, err = rd.rawString(dst)
		default:
			return dst, fmt.Errorf("%w %d at byte %d in a value of module type %s (known: %s)", errModuleOpcode, op, at, record.ModuleName(id), moduleOpList())
		}
		if err != nil {
			return dst, err
		}
	}
}

func moduleOpList() string {
	s := ""
	for i, n := range moduleOpNames {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", i, n)
	}
	return s
}

// raw appends the next n bytes to dst.
func (rd *Reader) raw(dst []byte, n int) ([]byte, error) {
	b, err := rd.in.next(n)
	return append(dst, b...), err
}

// rawLength reads an RDB length that may not be a special string, appending its bytes to
// dst.
func (rd *Reader) rawLength(dst []byte) (uint64, []byte, error) {
	c, err := rd.in.byte()
	if err != nil {
		return 0, dst, err
	}
	return rd.rawLengthFrom(c, dst)
}

// rawLengthFrom reads the rest of the RDB length whose first byte is c, appending c and
// its bytes to dst.
func (rd *Reader) rawLengthFrom(c byte, dst []byte) (uint64, []byte, error) {
	in := rd.in
	dst = append(dst, c)
	switch c >> 6 {
	case 0:
		return uint64(c & 0x3f), dst, nil
	case 1:
		d, err := in.byte()
		return uint64(c&0x3f)<<8 | uint64(d), append(dst, d), err
	case 3:
		return 0, dst, errBadLength
	}
	switch c {
	case 0x80:
		b, err := in.next(4)
		if err != nil {
			return 0, dst, err
		}
		return uint64(binary.BigEndian.Uint32(b)), append(dst, b...), nil
	case 0x81:
		b, err := in.next(8)
		if err != nil {
			return 0, dst, err
		}
		return binary.BigEndian.Uint64(b), append(dst, b...), nil
	}
	return 0, dst, errBadLength
}

// rawString appends an RDB string (raw, integer or LZF) to dst as the file holds it,
// reading its bytes in chunks as they arrive. An LZF string is copied, not decompressed:
// only its lengths are checked.
func (rd *Reader) rawString(dst []byte) ([]byte, error) {
	in := rd.in
	c, err := in.byte()
	if err != nil {
		return dst, err
	}
	if c>>6 != 3 {
		var n uint64
		if n, dst, err = rd.rawLengthFrom(c, dst); err != nil {
			return dst, err
		}
		return rd.rawBytes(dst, n)
	}
	dst = append(dst, c)
	switch c & 0x3f {
	case 0, 1, 2:
		return rd.raw(dst, 1<<(c&0x3f))
	case 3:
		var clen, ulen uint64
		if clen, dst, err = rd.rawLength(dst); err != nil {
			return dst, err
		}
		if ulen, dst, err = rd.rawLength(dst); err != nil {
			return dst, err
		}
		if clen == 0 || ulen > clen*lzf.MaxRatio {
			return dst, errBadLZF
		}
		return rd.rawBytes(dst, clen)
	}
	return dst, errBadLength
}

// rawBytes appends the next n bytes to dst in chunks, so that a damaged length sizes no
// allocation before its bytes arrive.
func (rd *Reader) rawBytes(dst []byte, n uint64) ([]byte, error) {
	if n > maxModuleString {
		return dst, errTooLong
	}
	for n > 0 {
		k := min(n, uint64(len(rd.in.buf)))
		b, err := rd.in.next(int(k))
		if err != nil {
			return dst, err
		}
		dst = append(dst, b...)
		n -= k
	}
	return dst, nil
}
