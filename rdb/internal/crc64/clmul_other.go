//go:build !amd64 || purego

package crc64

// useCLMUL is false: there is no carry-less multiplication here, the tables do the work.
const useCLMUL = false

// foldCLMUL is never called where useCLMUL is false.
func foldCLMUL(uint64, []byte, *[4]uint64) (lo, hi uint64) {
	panic("crc64: no carry-less multiplication")
}
