package spec

import (
	"math/bits"

	"github.com/rdbgen/rdbgen/internal/draw"
)

// Randomness is counter-based: the generator of a value is seeded from (seed, family, field,
// record index, member index), so any value can be recomputed without those before it.

// source is a splitmix64 stream: a math/rand/v2 Source whose state is set for each value,
// so that one faker serves every value.
type source struct{ state uint64 }

// Uint64 returns the next number of the stream.
func (s *source) Uint64() uint64 {
	s.state += 0x9e3779b97f4a7c15
	return draw.Hash(s.state)
}

// below returns a number in [0, n) (n > 0), with a bias below 2^-32 for any n under 2^32.
func (s *source) below(n uint64) uint64 {
	if n&(n-1) == 0 {
		return s.Uint64() & (n - 1)
	}
	hi, _ := bits.Mul64(s.Uint64(), n)
	return hi
}

// float returns a number in [0, 1).
func (s *source) float() float64 { return float64(s.Uint64()>>11) / (1 << 53) }

// Salts that keep the streams of one record apart.
const (
	saltTTL     = 0x1f83d9abfb41bd6b
	saltCount   = 0x5be0cd19137e2179
	saltUUIDKey = 0x6a09e667f3bcc908
	saltUUIDHi  = 0xbb67ae8584caa73b
	saltMember  = 0x3c6ef372fe94f82b
	saltField   = 0xa54ff53a5f1d36f1
	saltScore   = 0x510e527fade682d1
)

// perm62 is a bijection of [0, 2^62) keyed by k: xor, multiply by an odd number and
// xorshift, each invertible modulo 2^62. unperm62 is its inverse.
const (
	mask62  = 1<<62 - 1
	permM1  = 0x9e3779b97f4a7c15 & mask62
	permM2  = 0xbf58476d1ce4e5b9 & mask62
	permSh1 = 31
	permSh2 = 32
)

func perm62(x, k uint64) uint64 {
	x = (x ^ k) & mask62
	x = x * permM1 & mask62
	x ^= x >> permSh1
	x = x * permM2 & mask62
	x ^= x >> permSh2
	return x
}

func unperm62(y, k uint64) uint64 {
	y ^= y >> permSh2 // an xorshift by at least half the width is its own inverse
	y = y * inverse(permM2) & mask62
	y ^= y >> permSh1
	y = y * inverse(permM1) & mask62
	return (y ^ k) & mask62
}

// inverse returns the inverse of the odd number a modulo 2^64 (Newton's iteration).
func inverse(a uint64) uint64 {
	x := a
	for range 5 {
		x *= 2 - a*x
	}
	return x
}
