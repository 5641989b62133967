package dataset

import "github.com/rdbgen/rdbgen/internal/draw"

// Random values come from a counter-based generator: the bytes of record i depend on (seed, i)
// alone, so any record can be recomputed without the ones before it.

const (
	saltValue    = 0x5be0cd19137e2179
	saltTTL      = 0x1f83d9abfb41bd6b
	saltMembers  = 0x6a09e667f3bcc908 // member counts
	saltMember   = 0xbb67ae8584caa73b // random member contents
	saltMemberID = 0x3c6ef372fe94f82b // unique random member names
	saltScore    = 0xa54ff53a5f1d36f1
)

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// appendRandom appends n characters of alphabet drawn from (seed, i).
func appendRandom(dst []byte, seed, i uint64, n int) []byte {
	return appendRandomFrom(dst, draw.Mix(seed^saltValue, i), n)
}

// appendRandomFrom appends n characters of alphabet drawn from state.
func appendRandomFrom(dst []byte, state uint64, n int) []byte {
	for n > 0 {
		state += 0x9e3779b97f4a7c15
		r := draw.Hash(state)
		// Ten 6-bit characters per 64-bit draw.
		k := min(n, 10)
		for range k {
			dst = append(dst, alphabet[r&63])
			r >>= 6
		}
		n -= k
	}
	return dst
}
