// Package rdbfixture builds RDB files byte by byte for tests: hand-made records, listpacks and
// ziplists whose headers may disagree with their entries, module values, files of any RDB
// version. Valid unless a test makes them otherwise on purpose.
package rdbfixture

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

// File returns an RDB file of version: the header, SELECTDB 0, the records, EOF and, from RDB
// 5 on, the checksum trailer.
func File(version int, records ...[]byte) []byte {
	return Header(fmt.Sprintf("REDIS%04d", version), records...)
}

// Valkey returns a file with Valkey 9's magic, "VALKEY" and three digits of version (80 for
// Valkey 9.0), laid out as File's.
func Valkey(version int, records ...[]byte) []byte {
	return Header(fmt.Sprintf("VALKEY%03d", version), records...)
}

// Header returns a file that begins with the 9-byte header head, then SELECTDB 0, the
// records, EOF and the checksum trailer (none when head is REDIS0001 to REDIS0004).
func Header(head string, records ...[]byte) []byte {
	b := []byte(head)
	b = append(b, 0xfe, 0)
	for _, r := range records {
		b = append(b, r...)
	}
	b = append(b, 0xff)
	if head[:5] != "REDIS" || head[5:] >= "0005" {
		b = binary.LittleEndian.AppendUint64(b, rdb.Checksum(b))
	}
	return b
}

// SetHeader returns a copy of the whole RDB file file with its 9-byte header replaced by
// head and its checksum trailer recomputed.
func SetHeader(file []byte, head string) []byte {
	b := append([]byte(head), file[9:len(file)-8]...)
	return binary.LittleEndian.AppendUint64(b, rdb.Checksum(b))
}

// SlotImport returns Valkey 9's RDB_OPCODE_SLOT_IMPORT (243): the job name, the count of
// ranges and each range's first and last slot (clusterRDBSaveSlotImports).
func SlotImport(job string, ranges ...[2]uint64) []byte {
	b := append([]byte{243}, Str(job)...)
	b = append(b, Len(uint64(len(ranges)))...)
	for _, r := range ranges {
		b = append(b, Len(r[0])...)
		b = append(b, Len(r[1])...)
	}
	return b
}

// ValkeyHash2 returns the value of Valkey 9's RDB_TYPE_HASH_2 (type 22 under the VALKEY
// magic): the field count, then per field the field, the value and the expiry as 8 bytes
// little-endian in Unix ms (-1 for none). pairs alternate field and value; ttls is per field.
func ValkeyHash2(pairs []string, ttls []int64) []byte {
	b := Len(uint64(len(ttls)))
	for i, ttl := range ttls {
		b = append(b, Str(pairs[2*i])...)
		b = append(b, Str(pairs[2*i+1])...)
		b = binary.LittleEndian.AppendUint64(b, uint64(ttl))
	}
	return b
}

// Len returns an RDB length.
func Len(n uint64) []byte {
	switch {
	case n < 1<<6:
		return []byte{byte(n)}
	case n < 1<<14:
		return []byte{0x40 | byte(n>>8), byte(n)}
	case n <= math.MaxUint32:
		return binary.BigEndian.AppendUint32([]byte{0x80}, uint32(n))
	}
	return binary.BigEndian.AppendUint64([]byte{0x81}, n)
}

// Str returns a raw RDB string.
func Str(s string) []byte { return append(Len(uint64(len(s))), s...) }

// Record returns a record: the type byte, the key and the value's bytes.
func Record(typ byte, key string, value ...[]byte) []byte {
	b := append([]byte{typ}, Str(key)...)
	for _, v := range value {
		b = append(b, v...)
	}
	return b
}

// Expiring returns rec preceded by an EXPIRETIME_MS opcode for atMS.
func Expiring(atMS int64, rec []byte) []byte {
	return append(binary.LittleEndian.AppendUint64([]byte{0xfc}, uint64(atMS)), rec...)
}

// Listpack returns a listpack of string entries whose header says count elements
// (len(entries) when count is negative).
func Listpack(count int, entries ...string) []byte {
	if count < 0 {
		count = len(entries)
	}
	b := make([]byte, 6)
	for _, e := range entries {
		var enc []byte
		switch n := len(e); {
		case n < 64:
			enc = append([]byte{0x80 | byte(n)}, e...)
		case n < 4096:
			enc = append([]byte{0xe0 | byte(n>>8), byte(n)}, e...)
		default:
			enc = append(binary.LittleEndian.AppendUint32([]byte{0xf0}, uint32(n)), e...)
		}
		b = append(b, enc...)
		b = append(b, backlen(len(enc))...)
	}
	b = append(b, 0xff)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	binary.LittleEndian.PutUint16(b[4:], uint16(count))
	return b
}

// backlen encodes a listpack entry's length as Redis's lpEncodeBacklen does: 7-bit groups,
// the most significant first, all but the first with the high bit set, in as many bytes as
// its boundaries say (16383 takes 3, with a leading zero group; 2097151 and 268435455 alike).
func backlen(l int) []byte {
	n := 5
	switch {
	case l <= 127:
		n = 1
	case l < 16383:
		n = 2
	case l < 2097151:
		n = 3
	case l < 268435455:
		n = 4
	}
	out := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		out[i] = byte(l & 127)
		if i > 0 {
			out[i] |= 128
		}
		l >>= 7
	}
	return out
}

// Ziplist returns a ziplist of string entries whose header says count elements
// (len(entries) when count is negative).
func Ziplist(count int, entries ...string) []byte {
	if count < 0 {
		count = len(entries)
	}
	b := make([]byte, 10)
	prev, tail := 0, 10
	for _, e := range entries {
		tail = len(b)
		start := len(b)
		if prev < 254 {
			b = append(b, byte(prev))
		} else {
			b = binary.LittleEndian.AppendUint32(append(b, 0xfe), uint32(prev))
		}
		switch n := len(e); {
		case n < 64:
			b = append(b, byte(n))
		case n < 16384:
			b = append(b, 0x40|byte(n>>8), byte(n))
		default:
			b = binary.BigEndian.AppendUint32(append(b, 0x80), uint32(n))
		}
		b = append(b, e...)
		prev = len(b) - start
	}
	b = append(b, 0xff)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	binary.LittleEndian.PutUint32(b[4:], uint32(tail))
	binary.LittleEndian.PutUint16(b[8:], uint16(count))
	return b
}

// Module value opcodes (RDB_MODULE_OPCODE_*).
const (
	ModEOF    = 0
	ModSInt   = 1
	ModUInt   = 2
	ModFloat  = 3
	ModDouble = 4
	ModString = 5
)

// ModuleID returns the 64-bit id of a module type: its 9-character name and encoding
// version (record.ModuleID; a bad name panics).
func ModuleID(name string, version uint64) uint64 {
	id, err := record.ModuleID(name, version)
	if err != nil {
		panic(err)
	}
	return id
}

// ModuleValue returns the value of a type-7 record: the module id, then a uint, a string,
// a double and the EOF opcode, as RM_SaveUnsigned, RM_SaveString and RM_SaveDouble write them.
func ModuleValue(name string, version uint64, n uint64, s string) []byte {
	b := Len(ModuleID(name, version))
	b = append(b, Len(ModUInt)...)
	b = append(b, Len(n)...)
	b = append(b, Len(ModString)...)
	b = append(b, Str(s)...)
	b = append(b, Len(ModDouble)...)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(1.5))
	return append(b, Len(ModEOF)...)
}

// ModuleAux returns a MODULE_AUX opcode (247) with a module value written after the keyspace.
func ModuleAux(name string, version uint64) []byte {
	b := append([]byte{247}, Len(ModuleID(name, version))...)
	b = append(b, Len(ModUInt)...) // when_opcode
	b = append(b, Len(2)...)       // REDISMODULE_AUX_AFTER_RDB
	b = append(b, Len(ModSInt)...)
	b = append(b, Len(7)...)
	return append(b, Len(ModEOF)...)
}

// Stream describes a stream of type 19 (RDB 10) with one node of entries 1000-0, 1000-1…
// each with the field "f", and one group "g" with one consumer "c".
type Stream struct {
	Entries int // entries in the node, at least 1
	// LPCount, if not 0, replaces the lp-count of the first entry (4 is right).
	LPCount int
	// Pending are the sequence numbers of the group's pending entries (ms 1000), and Owned
	// those the consumer owns.
	Pending, Owned []uint64
	// Swap, if set, writes the node's first two entries' ids in the wrong order.
	Swap bool
}

// Record returns the stream as the record of key.
func (st Stream) Record(key string) []byte { return Record(19, key, st.value(false)) }

// value returns the stream's value through its consumer's pending ids; activeTime adds the
// consumer's active time after its seen time (type 21 on).
func (st Stream) value(activeTime bool) []byte {
	const ms = 1000
	entries := []string{strconv.Itoa(st.Entries), "0", "1", "f", "0"}
	for i := range st.Entries {
		seq := i
		if st.Swap && i < 2 {
			seq = 1 - i
		}
		lpCount := "4"
		if i == 0 && st.LPCount != 0 {
			lpCount = strconv.Itoa(st.LPCount)
		}
		entries = append(entries, "2", "0", strconv.Itoa(seq), "v"+strconv.Itoa(i), lpCount)
	}
	id := func(seq uint64) []byte {
		return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, ms), seq)
	}
	b := append(Len(1), Str(string(id(0)))...)
	b = append(b, Str(string(Listpack(-1, entries...)))...)
	b = append(b, Len(uint64(st.Entries))...)                       // length
	b = append(b, append(Len(ms), Len(uint64(st.Entries-1))...)...) // last id
	b = append(b, append(Len(ms), Len(0)...)...)                    // first id
	b = append(b, append(Len(0), Len(0)...)...)                     // max deleted id
	b = append(b, Len(uint64(st.Entries))...)                       // entries added
	b = append(b, Len(1)...)                                        // groups
	b = append(b, Str("g")...)                                      // name
	b = append(b, append(Len(ms), Len(uint64(st.Entries-1))...)...) // last delivered id
	b = append(b, Len(uint64(st.Entries))...)                       // entries read
	b = append(b, Len(uint64(len(st.Pending)))...)
	for _, seq := range st.Pending {
		b = append(b, id(seq)...)
		b = binary.LittleEndian.AppendUint64(b, 1700000000000) // delivery time
		b = append(b, Len(1)...)                               // delivery count
	}
	b = append(b, Len(1)...) // consumers
	b = append(b, Str("c")...)
	b = binary.LittleEndian.AppendUint64(b, 1700000000000) // seen time
	if activeTime {
		b = binary.LittleEndian.AppendUint64(b, 1700000000001)
	}
	b = append(b, Len(uint64(len(st.Owned)))...)
	for _, seq := range st.Owned {
		b = append(b, id(seq)...)
	}
	return b
}

// ModuleFile returns an RDB 10 file holding a module AUX payload of ft-index0, the keys bf1 and
// bf2 (expiring in 2100) of the module type MBbloom--, js of ReJSON-RL, and the string k.
func ModuleFile() []byte {
	return File(10,
		ModuleAux("ft-index0", 2),
		Record(7, "bf1", ModuleValue("MBbloom--", 4, 7, "abc")),
		Expiring(4102444800000, Record(7, "bf2", ModuleValue("MBbloom--", 4, 300, "x"))),
		Record(7, "js", ModuleValue("ReJSON-RL", 3, 1, "y")),
		Record(0, "k", Str("v")),
	)
}

// Cat returns the parts one after the other.
func Cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}
