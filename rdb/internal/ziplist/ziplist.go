// Package ziplist writes and reads ziplists (Redis up to 6.2, RDB 9 and before), the compact
// container of small hashes, sorted sets, lists and list nodes: the writer's append
// functions, and an Iterator for the reader that checks what Redis's deep sanitization
// checks (ziplistValidateIntegrity).
//
// A ziplist is: total bytes (uint32 LE), offset of the last entry (uint32 LE), entry count
// (uint16 LE, 65535 when larger), the entries, and an 0xFF terminator. Each entry starts with
// the size of the previous entry (1 byte under 254, else 0xFE and a uint32 LE), then an
// encoding and the data. Canonical int64 strings are stored as integers: 0 to 12 inside the
// encoding byte, else 8, 16, 24, 32 or 64 bits (ziplist.c, zipTryEncoding).
package ziplist

import (
	"encoding/binary"

	"github.com/rdbgen/rdbgen/rdb/internal/canonint"
)

const (
	// HeaderLen is the bytes of a ziplist before its first entry.
	HeaderLen = 10
	end       = 0xff
	bigPrev   = 254
	// maxCount is the entry count a header can hold; a ziplist with more says 65535.
	maxCount = 1<<16 - 1
)

// AppendHeader reserves room for a ziplist header at the end of b, filled in by Finish.
func AppendHeader(b []byte) []byte {
	return append(b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) // HeaderLen bytes
}

// AppendPrevLen appends the field that opens an entry: prev, the size of the entry before
// (0 for the first).
func AppendPrevLen(b []byte, prev int) []byte {
	if prev < bigPrev {
		return append(b, byte(prev))
	}
	return binary.LittleEndian.AppendUint32(append(b, bigPrev), uint32(prev))
}

// AppendString appends the encoding and data of s, as an integer when it is one
// (canonint.Parse).
func AppendString(b, s []byte) []byte {
	if v, ok := canonint.Parse(s); ok {
		return AppendInt(b, v)
	}
	n := len(s)
	switch {
	case n <= 0x3f:
		b = append(b, byte(n))
	case n <= 0x3fff:
		b = append(b, 0x40|byte(n>>8), byte(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0x80), uint32(n))
	}
	return append(b, s...)
}

// AppendInt appends the encoding and data of the integer v.
func AppendInt(b []byte, v int64) []byte {
	switch {
	case v >= 0 && v <= 12:
		return append(b, 0xf1+byte(v))
	case v >= -1<<7 && v <= 1<<7-1:
		return append(b, 0xfe, byte(v))
	case v >= -1<<15 && v <= 1<<15-1:
		return append(b, 0xc0, byte(v), byte(v>>8))
	case v >= -1<<23 && v <= 1<<23-1:
		return append(b, 0xf0, byte(v), byte(v>>8), byte(v>>16))
	case v >= -1<<31 && v <= 1<<31-1:
		return append(b, 0xd0, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	default:
		return binary.LittleEndian.AppendUint64(append(b, 0xe0), uint64(v))
	}
}

// Finish terminates the ziplist of count entries at b[start:] and fills in its header; tail
// is the offset of its last entry from start (HeaderLen when it has none).
func Finish(b []byte, start, tail, count int) []byte {
	b = append(b, end)
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start))
	binary.LittleEndian.PutUint32(b[start+4:], uint32(tail))
	binary.LittleEndian.PutUint16(b[start+8:], uint16(min(count, maxCount)))
	return b
}
