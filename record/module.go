package record

import (
	"errors"
	"fmt"
	"strings"
)

// Module values and module AUX data are written by Redis modules (RedisJSON, RedisBloom,
// time series, search, vector sets) in the self-describing form of RDB 9 (Redis 5.0+;
// module values since RDB 8): a sequence of values each tagged by an opcode (signed,
// unsigned, float, double, string) and ended by an EOF opcode. rdbgen carries that form
// byte for byte, without the module: a module value is a key of type Module whose header
// holds the module id and, in Value, the opcode stream; module AUX data is file-level data,
// as a function library is, written through Sink.WriteModuleAux.

// A ModuleAux is one module's AUX data (RDB opcode 247): what a module saves beside the
// keyspace, such as search index definitions.
type ModuleAux struct {
	// ModuleID is the module type's id: its name and encoding version (see ModuleName).
	ModuleID uint64
	// When is where the module saved it: ModuleAuxBefore the keyspace or ModuleAuxAfter it.
	When uint64
	// Value is the module's data as the file holds it: the opcode stream through its EOF
	// opcode.
	Value []byte
}

// Where a module saves its AUX data (REDISMODULE_AUX_BEFORE_RDB, _AFTER_RDB).
const (
	ModuleAuxBefore = 1
	ModuleAuxAfter  = 2
)

// Errors of module data, for errors.Is.
var (
	// ErrModuleAuxUnsupported: the Sink cannot carry module AUX data.
	ErrModuleAuxUnsupported = errors.New("record: this output cannot carry module AUX data")
	// ErrModuleValue: a module value without module id or whose serialized form does not
	// end with the EOF opcode.
	ErrModuleValue = errors.New("record: module value without module id or EOF opcode")
	// ErrModuleName: a module type name that is not 9 characters of A-Z a-z 0-9 - _.
	ErrModuleName = errors.New("record: invalid module type name (want 9 characters of A-Z, a-z, 0-9, - and _)")
)

// RefuseModuleAux is embedded by a Sink that cannot carry module AUX data: its
// WriteModuleAux names the module and wraps ErrModuleAuxUnsupported.
type RefuseModuleAux struct{}

// WriteModuleAux refuses the data.
func (RefuseModuleAux) WriteModuleAux(a *ModuleAux) error {
	return fmt.Errorf("%s: %w", a.Label(), ErrModuleAuxUnsupported)
}

// Label names the data in messages: `module AUX of "ft-index0" (encoding version 1)`.
func (a *ModuleAux) Label() string {
	return fmt.Sprintf("module AUX of %q (encoding version %d)", ModuleName(a.ModuleID), ModuleEncVer(a.ModuleID))
}

// Clone returns a copy of a that shares no memory with it.
func (a *ModuleAux) Clone() ModuleAux {
	return ModuleAux{ModuleID: a.ModuleID, When: a.When, Value: clone(a.Value)}
}

// moduleCharset are the characters of module type names, in the order of their 6-bit
// codes (moduleTypeNameByID, module.c).
const moduleCharset = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// ModuleName returns the 9-character name of a module type from its id: 9 characters of 6
// bits from bit 63 down, above the 10 bits of the encoding version (moduleTypeNameByID).
func ModuleName(id uint64) string {
	var name [9]byte
	id >>= 10
	for j := 8; j >= 0; j-- {
		name[j] = moduleCharset[id&63]
		id >>= 6
	}
	return string(name[:])
}

// ModuleEncVer returns the encoding version (0 to 1023) a module type id holds.
func ModuleEncVer(id uint64) uint64 { return id & 1023 }

// ModuleID returns the id of the module type name at encoding version encver
// (moduleTypeEncodeId, module.c); a name that is not 9 characters of the module charset
// wraps ErrModuleName, and encver must be below 1024.
func ModuleID(name string, encver uint64) (uint64, error) {
	if len(name) != 9 {
		return 0, fmt.Errorf("%w: %q", ErrModuleName, name)
	}
	if encver > 1023 {
		return 0, fmt.Errorf("%w: encoding version %d (0 to 1023)", ErrModuleName, encver)
	}
	var id uint64
	for i := range len(name) {
		k := strings.IndexByte(moduleCharset, name[i])
		if k < 0 {
			return 0, fmt.Errorf("%w: %q", ErrModuleName, name)
		}
		id = id<<6 | uint64(k)
	}
	return id<<10 | encver, nil
}

// ParseTypeFilter reads a type as filters and rewrite rules name it: one of Types, or
// "module:NAME", a module value of the module type NAME (9 characters, as TYPE answers it).
// It returns the type and, for the second form, the module type name; an unknown type wraps
// ErrBadType, a bad module type name ErrModuleName.
func ParseTypeFilter(s string) (Type, string, error) {
	if name, ok := strings.CutPrefix(s, string(Module)+":"); ok {
		if _, err := ModuleID(name, 0); err != nil {
			return "", "", err
		}
		return Module, name, nil
	}
	if t := Type(s); t != "" && t.Valid() {
		return t, "", nil
	}
	return "", "", fmt.Errorf("%w %q (known: string, list, set, zset, hash, stream, module, module:NAME)", ErrBadType, s)
}
