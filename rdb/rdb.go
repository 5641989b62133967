// Package rdb is the RDB format, the snapshot file Redis and Valkey write and load at
// start-up: its writer (rdb/encoder, standard library only), its reader (rdb/decoder), and
// the pieces both use, each writing and reading side by side (rdb/internal: lzf, crc64,
// listpack). This package gives the rest of rdbgen the one of them it needs outside the
// format: the checksum of a file's trailer.
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
