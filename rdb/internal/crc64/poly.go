package crc64

// Arithmetic on polynomials mod P, the Jones polynomial, for the constants of the folding
// checksum (clmul.go) and for Combine. Polynomials are kept reflected, as the checksum is: bit 63 is x^0.

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

// xPowModP returns x^e mod P.
func xPowModP(e uint64) uint64 {
	p := uint64(1) << 63 // x^0
	for k := 0; e != 0; k++ {
		if e&1 != 0 {
			p = multModP(x2nTable[k], p)
		}
		e >>= 1
	}
	return p
}

// Combine returns the checksum of a‖b from crcA, the checksum of a, and crcB, that of b
// (each from 0), and b's length, as zlib's crc32_combine does: the checksum (initial value 0,
// no final xor) is linear, so crc(a‖b) = crc(a)·x^(8·len(b)) mod P ⊕ crc(b).
func Combine(crcA, crcB, lenB uint64) uint64 {
	return multModP(xPowModP(8*lenB), crcA) ^ crcB
}
