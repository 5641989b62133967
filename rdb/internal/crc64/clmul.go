package crc64

import "encoding/binary"

// The checksum by carry-less multiplication ("Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ", Intel, 2009), without its final Barrett reduction.
//
// The data is read 16 bytes at a time as a 128-bit polynomial. A block and the block 16 bytes
// after it have the same remainder mod P as the block alone moved forward onto the second and
// added to it; moving a block forward by d bytes multiplies its first 8 bytes by x^(8d+64) and
// its last 8 by x^(8d), and both products, taken mod P first, fit in 128 bits again. Folding
// so leaves one block with the remainder of everything before it, and the checksum of that
// block followed by the bytes left over is the checksum of the whole, which the tables
// compute. The assembly folds four blocks side by side (64 bytes apart), then into one.
//
// Polynomials are reflected, as the checksum is: bit 63 of a word is x^0. A carry-less
// product of two reflected 64-bit words comes out reflected over 127 bits, one short of the
// 128 of a block, so each constant is taken one degree lower: x^(8d+63) and x^(8d-1).

// clmulMinLen is the shortest input worth the call: below it the tables are as fast.
const clmulMinLen = 64

// foldKeys are the constants of foldCLMUL: moving a block forward by 16 bytes, then by 64.
var foldKeys = [4]uint64{xPowModP(16*8 + 63), xPowModP(16*8 - 1), xPowModP(64*8 + 63), xPowModP(64*8 - 1)}

// updateCLMUL continues crc over p, which is at least 16 bytes long, by folding.
func updateCLMUL(crc uint64, p []byte) uint64 {
	n := len(p) &^ 15
	lo, hi := foldCLMUL(crc, p[:n], &foldKeys)
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], lo)
	binary.LittleEndian.PutUint64(b[8:], hi)
	return updateTable(updateTable(0, b[:]), p[n:])
}
