package encoder

import "encoding/binary"

// An intset is: the width of its integers (uint32 LE: 2, 4 or 8 bytes, the smallest that holds
// every member), the member count (uint32 LE), then the members sorted ascending, little-endian
// (intset.c).

// intsetWidth returns the width an intset needs for values from lo to hi.
func intsetWidth(lo, hi int64) int {
	switch {
	case lo < -1<<31 || hi > 1<<31-1:
		return 8
	case lo < -1<<15 || hi > 1<<15-1:
		return 4
	default:
		return 2
	}
}

// appendIntset appends the intset of vs, which must be sorted ascending and unique.
func appendIntset(b []byte, vs []int64) []byte {
	width := intsetWidth(vs[0], vs[len(vs)-1])
	b = binary.LittleEndian.AppendUint32(b, uint32(width))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(vs)))
	for _, v := range vs {
		switch width {
		case 2:
			b = binary.LittleEndian.AppendUint16(b, uint16(v))
		case 4:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		default:
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
	}
	return b
}
