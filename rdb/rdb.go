// Package rdb is the RDB format's vocabulary, shared by its reader (rdb/decoder) and its
// writer (rdb/encoder), which import it and never each other: the targets a file is written
// for (Target, LookupTarget, DefaultTarget) and the managed services among them (Service);
// the RDB versions rdbgen writes; the one capability table, what each RDB version and target
// can hold (Feature, Capabilities, CannotHoldError); the encoding thresholds (Thresholds);
// the DUMP payload's trailer and its check (CheckPayload); the file trailer's checksum; and
// the sentinels of them all. It imports nothing of rdbgen but the format's internal packages
// (rdb/internal: lzf, crc64, listpack, ...) and nothing outside the standard library.
package rdb

import "github.com/rdbgen/rdbgen/rdb/internal/crc64"

// Checksum returns the CRC-64 (Jones) that an RDB file's trailer holds for p, the file's
// bytes before the trailer.
func Checksum(p []byte) uint64 { return crc64.Checksum(p) }

// A Digest computes Checksum of the bytes written to it, in pieces; the zero value is ready.
type Digest struct{ d crc64.Digest }

// Write adds p to the checksum; it never fails.
func (d *Digest) Write(p []byte) (int, error) { return d.d.Write(p) }

// Sum64 returns the checksum of the bytes written so far.
func (d *Digest) Sum64() uint64 { return d.d.Sum64() }
