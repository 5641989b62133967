package encoder

import "encoding/binary"

// Length prefixes (rdbSaveLen in Redis): the top two bits of the first byte choose the form.
const (
	len6Bit  = 0x00 // 00xxxxxx
	len14Bit = 0x40 // 01xxxxxx xxxxxxxx, big-endian
	len32Bit = 0x80 // 10000000 + 4 bytes, big-endian
	len64Bit = 0x81 // 10000001 + 8 bytes, big-endian
)

// appendLength appends n in the shortest RDB length encoding.
func appendLength(b []byte, n uint64) []byte {
	switch {
	case n < 1<<6:
		return append(b, byte(n)|len6Bit)
	case n < 1<<14:
		return append(b, byte(n>>8)|len14Bit, byte(n))
	case n <= 1<<32-1:
		return binary.BigEndian.AppendUint32(append(b, len32Bit), uint32(n))
	default:
		return binary.BigEndian.AppendUint64(append(b, len64Bit), n)
	}
}
