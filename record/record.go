// Package record is the vocabulary every part of rdbgen shares: the records that sources
// (a generated dataset, a spec file, a JSON or CSV import, an RDB file) write into sinks (an
// RDB writer, shard files, RESP commands, a live server, a report). It uses the standard
// library only, and every other package may import it.
//
// A Sink receives its records database by database: BeginDB once per database, then that
// database's keys. Each key opens with Begin and a Header that says its type (the type is
// data, not a method): a string is whole in its header and nothing follows it; any other
// key takes one Add per member (a hash field, a list element, a set or sorted-set member, a
// stream entry) and ends with End, which carries a stream's metadata and consumer groups.
// A module value (type Module) is whole in its header too. Function libraries and module
// AUX data belong to no database and arrive through WriteFunction and WriteModuleAux.
package record

import (
	"errors"
	"fmt"
	"math"
)

// Type is the Redis type of a record.
type Type string

// Types.
const (
	String Type = "string"
	Hash   Type = "hash"
	List   Type = "list"
	Set    Type = "set"
	ZSet   Type = "zset"
	Stream Type = "stream"
	// Module is a module type's value (RDB type 7), carried as the module serialized it:
	// see ModuleAux for the form.
	Module Type = "module"
)

// MaxDB is the largest database number a file may hold.
const MaxDB = 1<<31 - 1

// Types lists the types in the order of their RDB type bytes' first use, for messages.
var Types = []Type{String, List, Set, ZSet, Hash, Stream, Module}

// IsString reports whether t means string keys (the empty type does too).
func (t Type) IsString() bool { return t == "" || t == String }

// IsCollection reports whether t holds members rather than one value.
func (t Type) IsCollection() bool { return t == Hash || t == List || t == Set || t == ZSet }

// Valid reports whether t is one of the types (the empty type means String).
func (t Type) Valid() bool { return t.IsString() || t.IsCollection() || t == Stream || t == Module }

// Whole reports whether a key of type t is whole in its Header (a string, a module value):
// no Add or End follows its Begin.
func (t Type) Whole() bool { return t == String || t == Module }

// A Header opens one key in a Sink: its name, type and expiry, and what a writer must know
// before the members (their number, the first field expiry). A string is whole in its
// header.
type Header struct {
	Key  []byte
	Type Type
	// Value is a string's value, or a module value's serialized form (the opcode stream
	// after the module id, through its EOF opcode); other types leave it nil.
	Value []byte
	// ModuleID is a module value's module type id: its name and encoding version (see
	// ModuleName, ModuleEncVer); 0 for other types.
	ModuleID uint64
	// Len is the number of members of a hash, list, set or sorted set; 0 for strings and
	// streams (a stream's length is in its tail).
	Len uint64
	// ExpireAtMS is the key's expiry, absolute Unix ms; 0 for none.
	ExpireAtMS int64
	// MinFieldExpireAtMS is, for a hash whose fields carry expiries (Redis 7.4+), the
	// smallest of them; 0 for every other key. A writer needs it first: Redis writes it
	// before the fields.
	MinFieldExpireAtMS int64
	// FieldTTLs marks a hash whose fields may carry expiries (Redis 7.4+) although none
	// does now (MinFieldExpireAtMS 0): a dump holds such a hash once its field TTLs are
	// removed, and a writer keeps its encoding. See HasFieldTTLs.
	FieldTTLs bool
	// DoubleScores marks a sorted set whose scores the source held as doubles (a skiplist:
	// RDB types 3 and 5), not as listpack or ziplist entries. A server that packs such a set
	// into a listpack as it loads it (Redis 7.0+, Valkey) stores an integral score as an
	// integer, so a -0 score reads back 0 there; a writer does the same (see
	// encoder.Writer.BeginSkiplistZSet).
	DoubleScores bool
}

// HasFieldTTLs reports whether h opens a hash whose fields may carry expiries (Redis
// 7.4+): one with a smallest field expiry, or marked FieldTTLs.
func (h *Header) HasFieldTTLs() bool {
	return h.Type == Hash && (h.MinFieldExpireAtMS != 0 || h.FieldTTLs)
}

// A Member is one member of the open key: a hash field and its value (and expiry), a list
// element, a set member, a sorted-set member and its score, or a stream entry (its id and
// fields). Fields that do not apply to the key's type are zero.
type Member struct {
	Name       []byte  // hash field, list element, set or sorted-set member
	Value      []byte  // hashes: the field's value
	Score      float64 // sorted sets
	ExpireAtMS int64   // hash fields: absolute Unix ms, 0 for none (Redis 7.4+)
	// Streams: the entry's id, in ascending order, and its fields, alternating name and
	// value.
	ID     StreamID
	Fields [][]byte
}

// A Record is the whole content of one key.
type Record struct {
	DB         int
	Key        []byte
	Type       Type
	Value      []byte   // strings, and module values' serialized form
	ModuleID   uint64   // module values only
	Members    []Member // collections and stream entries, in the order written
	ExpireAtMS int64    // absolute Unix ms, 0 for none
	// Stream is a stream's metadata (zero fields derived) and its consumer groups.
	Stream StreamTail
	// DoubleScores marks a sorted set whose source held its scores as doubles (see
	// Header.DoubleScores).
	DoubleScores bool
}

// Errors of Check, for errors.Is.
var (
	ErrEmpty    = errors.New("record: empty collection (Redis drops empty keys)")
	ErrBadType  = errors.New("record: unknown type")
	ErrNaNScore = errors.New("record: score is NaN")
)

// Check reports what would make r unwritable: an unknown type, an empty collection, a
// module value without id or not ending with an EOF opcode, a NaN score, a negative expiry
// or db. It does not look for repeated members.
func (r *Record) Check() error {
	switch {
	case !r.Type.Valid():
		return fmt.Errorf("%w %q", ErrBadType, r.Type)
	case r.Type.IsCollection() && len(r.Members) == 0:
		return fmt.Errorf("%s: %w", r.Type, ErrEmpty)
	case r.Type == Module && (r.ModuleID == 0 || len(r.Value) == 0 || r.Value[len(r.Value)-1] != 0):
		return fmt.Errorf("module value of %q: %w", ModuleName(r.ModuleID), ErrModuleValue)
	case r.ExpireAtMS < 0:
		return fmt.Errorf("expiry %d ms is before 1970", r.ExpireAtMS)
	case r.DB < 0 || r.DB > MaxDB:
		return fmt.Errorf("db %d out of range (0 to %d)", r.DB, MaxDB)
	}
	if r.Type == ZSet {
		for _, m := range r.Members {
			if math.IsNaN(m.Score) {
				return fmt.Errorf("member %q: %w", m.Name, ErrNaNScore)
			}
		}
	}
	return nil
}

// Header returns the header that opens r in a Sink.
func (r *Record) Header() Header {
	h := Header{Key: r.Key, Type: r.Type, ExpireAtMS: r.ExpireAtMS}
	switch {
	case r.Type.IsString():
		h.Type, h.Value = String, r.Value
	case r.Type == Module:
		h.Value, h.ModuleID = r.Value, r.ModuleID
	case r.Type.IsCollection():
		h.Len = uint64(len(r.Members))
		h.MinFieldExpireAtMS = r.minFieldExpiry()
		h.DoubleScores = r.DoubleScores && r.Type == ZSet
	}
	return h
}

// WriteTo writes r, as one key of the open database, into s.
func (r *Record) WriteTo(s Sink) error {
	h := r.Header()
	if err := s.Begin(&h); err != nil || h.Type.Whole() {
		return err
	}
	for i := range r.Members {
		if err := s.Add(&r.Members[i]); err != nil {
			return err
		}
	}
	if r.Type == Stream {
		return s.End(&r.Stream)
	}
	return s.End(nil)
}

// minFieldExpiry returns the smallest expiry of r's hash fields, 0 when none expires.
func (r *Record) minFieldExpiry() int64 {
	var least int64
	if r.Type != Hash {
		return 0
	}
	for _, m := range r.Members {
		if m.ExpireAtMS != 0 && (least == 0 || m.ExpireAtMS < least) {
			least = m.ExpireAtMS
		}
	}
	return least
}
