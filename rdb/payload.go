package rdb

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/rdb/internal/crc64"
)

// A DUMP payload is one value as RESTORE takes it (createDumpPayload, cluster.c): the
// record's type byte and its object exactly as an RDB file holds them, without key or
// expiry, then the RDB version (2 bytes, little-endian) and the CRC-64 of everything before
// it (8 bytes, little-endian). A server refuses a payload whose version is newer than its
// own or whose checksum is wrong.

// PayloadTrailer is the size of a payload's version and checksum.
const PayloadTrailer = 10

// ErrPayload is returned by CheckPayload for bytes that are no payload the version takes,
// and by a payload writer for what a payload cannot carry.
var ErrPayload = errors.New("rdb: invalid payload")

// AppendPayloadTrailer appends to object (a type byte and its object, the start of a
// payload) the version and the CRC-64 of object and version: the payload RESTORE takes.
func AppendPayloadTrailer(object []byte, version int) []byte {
	b := binary.LittleEndian.AppendUint16(object, uint16(version))
	return binary.LittleEndian.AppendUint64(b, crc64.Update(0, b))
}

// CheckPayload checks a payload as a server of RDB version maxVersion does before it
// restores it (verifyDumpPayload): its length, its version (at most maxVersion) and its
// checksum. It returns the payload's version.
func CheckPayload(payload []byte, maxVersion int) (int, error) {
	if len(payload) < PayloadTrailer+1 {
		return 0, fmt.Errorf("%w: %d bytes, shorter than a type byte and the trailer", ErrPayload, len(payload))
	}
	at := len(payload) - PayloadTrailer
	version := int(binary.LittleEndian.Uint16(payload[at:]))
	if version > maxVersion {
		return version, fmt.Errorf("%w: RDB version %d, newer than %d", ErrPayload, version, maxVersion)
	}
	if got, want := binary.LittleEndian.Uint64(payload[at+2:]), crc64.Update(0, payload[:at+2]); got != want {
		return version, fmt.Errorf("%w: checksum %016x, want %016x", ErrPayload, got, want)
	}
	return version, nil
}
