// Package listpack writes and reads listpacks (Redis 7.0+, RDB 10+), the compact container
// of small hashes, sets, sorted sets, list nodes and stream nodes: the writer's append and
// size functions, and an Iterator for the reader that checks what Redis's deep sanitization
// checks (lpValidateIntegrity).
//
// A listpack is: total bytes (uint32 LE), element count (uint16 LE, 65535 when larger), the
// entries, and an 0xFF terminator. Each entry is an encoding byte and its data, then a
// back-length: the size of encoding and data, written so it can be read backwards. A string
// that is the canonical decimal form of an int64 is stored as an integer, in the smallest of
// the 7-bit, 13-bit, 16, 24, 32 and 64-bit forms (listpack.c, lpEncodeGetType).
package listpack

import (
	"encoding/binary"

	"github.com/rdbgen/rdbgen/rdb/internal/canonint"
)

const (
	headerLen = 6
	end       = 0xff
	// maxCount is the element count a header can hold; a listpack with more says 65535
	// (LP_HDR_NUMELE_UNKNOWN).
	maxCount = 1<<16 - 1
)

// Overhead is the bytes of a listpack that are not entries: the 6-byte header (total bytes,
// element count) and the 0xFF terminator.
const Overhead = headerLen + 1

// AppendHeader reserves room for a listpack header at the end of b, filled in by Finish.
func AppendHeader(b []byte) []byte {
	return append(b, 0, 0, 0, 0, 0, 0) // total bytes and element count
}

// Finish terminates the listpack of count entries that starts at b[start:] and fills in its
// header.
func Finish(b []byte, start, count int) []byte {
	b = append(b, end)
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start))
	binary.LittleEndian.PutUint16(b[start+4:], uint16(min(count, maxCount)))
	return b
}

// AppendEntry appends s as one entry, as an integer when it is one (canonint.Parse).
func AppendEntry(b, s []byte) []byte {
	if v, ok := canonint.Parse(s); ok {
		return AppendInt(b, v)
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
	return AppendBacklen(b, uint64(len(b)-start))
}

// AppendInt appends v as an integer entry.
func AppendInt(b []byte, v int64) []byte {
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
	return AppendBacklen(b, uint64(len(b)-start))
}

// EntrySize returns the bytes AppendEntry appends for s, without appending it.
func EntrySize(s []byte) int {
	if v, ok := canonint.Parse(s); ok {
		return IntSize(v)
	}
	n := len(s)
	head := 5
	switch {
	case n < 1<<6:
		head = 1
	case n < 1<<12:
		head = 2
	}
	return head + n + BacklenSize(head+n)
}

// IntSize returns the bytes AppendInt appends for v, without appending it.
func IntSize(v int64) int {
	switch {
	case v >= 0 && v <= 127:
		return 2
	case v >= -4096 && v <= 4095:
		return 3
	case v >= -1<<15 && v <= 1<<15-1:
		return 4
	case v >= -1<<23 && v <= 1<<23-1:
		return 5
	case v >= -1<<31 && v <= 1<<31-1:
		return 6
	default:
		return 10
	}
}
