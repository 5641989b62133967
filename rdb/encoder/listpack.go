package encoder

import (
	"encoding/binary"

	"github.com/rdbgen/rdbgen/rdb/internal/canonint"
	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
)

// A listpack (Redis 7.0+) is: total bytes (uint32 LE), element count (uint16 LE, 65535 when
// larger), the entries, and an 0xFF terminator. Each entry is an encoding byte and its data,
// then a "backlen": the size of encoding and data, written so it can be read backwards.
// A string that is the canonical decimal form of an int64 is stored as an integer, in the
// smallest of the 7-bit, 13-bit, 16, 24, 32 and 64-bit forms (listpack.c, lpEncodeGetType).

const (
	listpackEnd      = 0xff
	listpackMaxCount = 1<<16 - 1 // LP_HDR_NUMELE_UNKNOWN
)

// appendListpackHeader reserves room for a listpack header, filled in by finishListpack.
func appendListpackHeader(b []byte) []byte {
	return append(b, 0, 0, 0, 0, 0, 0) // total bytes and element count
}

// finishListpack terminates the listpack that starts at b[start:] and fills in its header.
func finishListpack(b []byte, start, count int) []byte {
	b = append(b, listpackEnd)
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start))
	binary.LittleEndian.PutUint16(b[start+4:], uint16(min(count, listpackMaxCount)))
	return b
}

// appendListpackEntry appends s as one listpack entry, as an integer when it is one.
func appendListpackEntry(b, s []byte) []byte {
	if v, ok := canonint.Parse(s); ok {
		return appendListpackInt(b, v)
	}
	start := len(b)
	n := len(s)
	switch {
	case n < 1<<6:
		b = append(b, 0x80|byte(n))
	case n < 1<<12:
		b = append(b, 0xe0|byte(n>>8), byte(n))
	default:
		b = append(b, 0xf0, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
	b = append(b, s...)
	return listpack.AppendBacklen(b, uint64(len(b)-start))
}

// appendListpackInt appends v as a listpack integer entry.
func appendListpackInt(b []byte, v int64) []byte {
	start := len(b)
	switch {
	case v >= 0 && v <= 127:
		b = append(b, byte(v))
	case v >= -4096 && v <= 4095:
		u := uint64(v) & (1<<13 - 1)
		b = append(b, 0xc0|byte(u>>8), byte(u))
	case v >= -1<<15 && v <= 1<<15-1:
		b = append(b, 0xf1, byte(v), byte(v>>8))
	case v >= -1<<23 && v <= 1<<23-1:
		b = append(b, 0xf2, byte(v), byte(v>>8), byte(v>>16))
	case v >= -1<<31 && v <= 1<<31-1:
		b = append(b, 0xf3, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	default:
		b = binary.LittleEndian.AppendUint64(append(b, 0xf4), uint64(v))
	}
	return listpack.AppendBacklen(b, uint64(len(b)-start))
}
