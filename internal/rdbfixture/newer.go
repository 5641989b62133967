package rdbfixture

import (
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Redis 8.6+ records (rdb/decoder/FORMATS.md names the sources of each layout).

// IDMP is a stream's idempotent-producer metadata (types 26 and 27).
type IDMP struct {
	Duration, MaxSize uint64 // 100 and 100 unless XCFGSET changed them
	// Producers maps a producer id to the sequence numbers (ms 1000) its idempotent ids
	// "iid-<seq>" added.
	Producers   map[string][]uint64
	Added, Dups uint64 // ids added, duplicates rejected
}

// DefaultIDMP is the metadata of a stream that never used IDMP.
var DefaultIDMP = IDMP{Duration: 100, MaxSize: 100}

// NewerStream describes a stream of type 26 (RDB 13) or 27 (RDB 14): Stream's entries,
// group "g" and consumer "c" (with an active time), then the NACK zone (type 27) and the
// IDMP metadata.
type NewerStream struct {
	Type    byte // 26 or 27
	Entries int  // at least 1
	// Pending are the sequence numbers of the group's pending entries, Owned those the
	// consumer owns, Nacked those in the group's NACK zone (type 27).
	Pending, Owned, Nacked []uint64
	IDMP                   IDMP
}

// Record returns the stream as the record of key.
func (st NewerStream) Record(key string) []byte {
	const ms = 1000
	b := Stream{Entries: st.Entries, Pending: st.Pending, Owned: st.Owned}.value(true)
	if st.Type == 27 {
		b = append(b, Len(uint64(len(st.Nacked)))...)
		for _, seq := range st.Nacked {
			b = binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(b, ms), seq)
		}
	}
	m := st.IDMP
	b = append(b, Len(m.Duration)...)
	b = append(b, Len(m.MaxSize)...)
	b = append(b, Len(uint64(len(m.Producers)))...)
	for _, pid := range slices.Sorted(maps.Keys(m.Producers)) {
		b = append(b, Str(pid)...)
		b = append(b, Len(uint64(len(m.Producers[pid])))...)
		for _, seq := range m.Producers[pid] {
			b = append(b, Str("iid-"+strconv.FormatUint(seq, 10))...)
			b = append(b, append(Len(ms), Len(seq)...)...)
		}
	}
	b = append(b, Len(m.Added)...)
	b = append(b, Len(m.Dups)...)
	return Record(st.Type, key, b)
}

// keyMetaCharset is the alphabet of key metadata class names (keymeta.c's keyMetaCharSet).
const keyMetaCharset = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

// KeyMetaSpec returns the 32-bit class spec of a class of 4-character name, version (0-31)
// and flags (0-7), as keyMetaClassEncode computes it.
func KeyMetaSpec(name string, version, flags uint32) uint32 {
	var n uint32
	for _, c := range name {
		n = n<<6 | uint32(strings.IndexRune(keyMetaCharset, c))
	}
	return (n<<5|version)<<3 | flags&7
}

// KeyMeta returns opcode 243 (RDB_OPCODE_KEY_META) with one class per name, version 1,
// each valued as a module's rdb_save writes an unsigned integer: the UINT opcode, the
// number, then the EOF opcode rdbSaveKeyMetadata appends.
func KeyMeta(names ...string) []byte {
	b := append([]byte{243}, Len(uint64(len(names)))...)
	for i, n := range names {
		b = binary.LittleEndian.AppendUint32(b, KeyMetaSpec(n, 1, 0))
		b = append(b, Len(ModUInt)...)
		b = append(b, Len(uint64(i+7))...)
		b = append(b, Len(ModEOF)...)
	}
	return b
}

// HashTemplate returns opcode 242 (RDB_OPCODE_HASH_TEMPLATE): a template's id, its number
// of fields and their names, as rdbSaveHashTemplates writes it.
func HashTemplate(id uint64, fields ...string) []byte {
	b := append([]byte{242}, Len(id)...)
	b = append(b, Len(uint64(len(fields)))...)
	for _, f := range fields {
		b = append(b, Str(f)...)
	}
	return b
}

// TemplateHash returns the value of a hash by template, type 29 to 32, as rdbSaveObject
// writes it: fields are the template's names (written by types 29 and 31, in the listpack
// format 0 or as strings, format 1), id its id, values the hash's, in the fields' order.
func TemplateHash(typ byte, id uint64, format int, fields, values []string) []byte {
	var names []byte
	if format == 0 {
		names = append(Len(0), Str(string(Listpack(-1, fields...)))...)
	} else {
		names = append(Len(uint64(format)), Len(uint64(len(fields)))...)
		for _, f := range fields {
			names = append(names, Str(f)...)
		}
	}
	var strs []byte
	for _, v := range values {
		strs = append(strs, Str(v)...)
	}
	switch typ {
	case 29:
		return append(names, Str(string(idListpack(id, values)))...)
	case 30:
		return Str(string(idListpack(id, values)))
	case 31:
		return append(names, strs...)
	}
	return append(Len(id), strs...)
}

// idListpack returns a listpack of the integer id (below 128: a 7-bit entry) then the
// values as strings.
func idListpack(id uint64, values []string) []byte {
	lp := Listpack(-1, values...)
	b := append([]byte{}, lp[:6]...)
	b = append(b, byte(id&0x7f), 1) // 0xxxxxxx, backlen 1
	b = append(b, lp[6:]...)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	binary.LittleEndian.PutUint16(b[4:], uint16(len(values)+1))
	return b
}

// ArrayElement is one element of an array (type 28): its index and value, an int64, a
// float64 or a string (written as a small string, tag 3, up to 7 bytes).
type ArrayElement struct {
	Index uint64
	Value any
}

// Array returns the value of an array (type 28) as rdbSaveObject writes it: the count, the
// insert index (none when insert is negative), then each element's index, tag and value.
func Array(insert int64, elems ...ArrayElement) []byte {
	b := Len(uint64(len(elems)))
	if insert < 0 {
		b = append(b, Len(0)...)
	} else {
		b = append(b, Len(1)...)
		b = append(b, Len(uint64(insert))...)
	}
	for _, e := range elems {
		b = append(b, Len(e.Index)...)
		switch v := e.Value.(type) {
		case int64:
			b = append(b, Len(1)...)
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		case float64:
			b = append(b, Len(2)...)
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		case string:
			tag := uint64(0)
			if len(v) <= 7 {
				tag = 3
			}
			b = append(b, Len(tag)...)
			b = append(b, Str(v)...)
		}
	}
	return b
}
