// Package draw is the counter-based randomness that datasets and spec files draw from: a value
// depends on a seed and the numbers that name it (record, member, field), never on the values
// drawn before it, so a verifier can recompute any one of them alone.
package draw

import "time"

// Hash is Steele, Lea and Flood's splitmix64 finaliser: a bijective, well-mixed hash of x.
func Hash(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Mix hashes a seed and a number into 64 well-mixed bits.
func Mix(seed, n uint64) uint64 { return Hash(Hash(seed) ^ n) }

// Between returns a number in [min, max] drawn from (seed, i), or min when max <= min.
func Between(min, max, seed, i uint64) uint64 {
	if max <= min {
		return min
	}
	return min + Mix(seed, i)%(max-min+1)
}

// ExpireAtMS returns the absolute expiry in Unix ms of record i of a dataset whose TTLs count
// from baseMS: baseMS + ttl, moved by up to ± jitter as drawn from (seed, i). It returns 0,
// no expiry, when ttl is not positive.
func ExpireAtMS(baseMS int64, ttl, jitter time.Duration, seed, i uint64) int64 {
	if ttl <= 0 {
		return 0
	}
	at := baseMS + ttl.Milliseconds()
	if j := uint64(jitter.Milliseconds()); j > 0 {
		at += int64(Mix(seed, i)%(2*j+1)) - int64(j)
	}
	return at
}
