//go:build amd64 && !purego

package crc64

// useCLMUL is set when the CPU has PCLMULQDQ, as nearly every amd64 CPU made since 2010 does.
var useCLMUL = hasPCLMULQDQ()

// hasPCLMULQDQ reports whether the CPU has the carry-less multiplication instruction.
func hasPCLMULQDQ() bool

// foldCLMUL folds p, whose length is a non-zero multiple of 16, with crc added to its first
// 8 bytes, into one 16-byte block with the same remainder (clmul.go), returned as its
// two little-endian words.
//
//go:noescape
func foldCLMUL(crc uint64, p []byte, keys *[4]uint64) (lo, hi uint64)
