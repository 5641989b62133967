package encoder

// CRC-64 combine, as zlib's crc32_combine does it: the CRC (initial value 0, no final xor) is
// linear, so crc(a‖b) = crc(a)·x^(8·len(b)) mod P ⊕ crc(b). Polynomials are kept reflected, as
// the checksum is: bit 63 is x^0.

// x2nTable[k] is x^(2^k) mod P.
var x2nTable = makeX2nTable()

func makeX2nTable() *[64]uint64 {
	t := new([64]uint64)
	p := uint64(1) << 62 // x^1
	for k := range t {
		t[k] = p
		p = multModP(p, p)
	}
	return t
}

// multModP returns a·b mod P.
func multModP(a, b uint64) uint64 {
	var p uint64
	for m := uint64(1) << 63; a != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
			a ^= m
		}
		if b&1 != 0 {
			b = b>>1 ^ jonesReflected
		} else {
			b >>= 1
		}
	}
	return p
}

// shiftCRC returns crc·x^(8·n) mod P: the checksum of the bytes crc covers followed by n zero
// bytes, the first half of a combine.
func shiftCRC(crc uint64, n uint64) uint64 {
	for k := 3; n != 0; k++ {
		if n&1 != 0 {
			crc = multModP(x2nTable[k&63], crc)
		}
		n >>= 1
	}
	return crc
}

// combineCRC returns the checksum of a‖b given crc1 of a, crc2 of b (from 0) and len(b).
func combineCRC(crc1, crc2 uint64, len2 int) uint64 {
	return shiftCRC(crc1, uint64(len2)) ^ crc2
}
