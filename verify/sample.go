package verify

import (
	"iter"
	"math/bits"
	"math/rand/v2"
)

// Sample yields n distinct record numbers out of [0, count), in increasing order, spread
// across the whole range: the range is cut into n strata of (nearly) equal width and one
// number is drawn from each, with the first stratum yielding 0 and the last count-1. The
// draw depends on seed alone, so a seed names a sample. With n >= count, every number is
// yielded. When count >= 2, an n of 1 is taken as 2, so that the first and last records are
// always included. It uses constant memory, whatever count and n are.
func Sample(count, n, seed uint64) iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		if n == 0 || count == 0 {
			return
		}
		if n >= count {
			for i := range count {
				if !yield(i) {
					return
				}
			}
			return
		}
		n = max(n, 2)
		r := rand.New(rand.NewPCG(seed, 0x72646267656e)) // "rdbgen"
		for k := range n {
			lo, hi := stratum(count, n, k)
			var i uint64
			switch k {
			case 0:
				i = 0
			case n - 1:
				i = count - 1
			default:
				i = lo + r.Uint64N(hi-lo)
			}
			if !yield(i) {
				return
			}
		}
	}
}

// stratum returns the bounds [lo, hi) of stratum k of n over [0, count), for 0 <= k < n <=
// count: floor(k*count/n) to floor((k+1)*count/n), computed without overflow. Each stratum
// holds at least one number, since n <= count.
func stratum(count, n, k uint64) (lo, hi uint64) {
	at := func(k uint64) uint64 {
		h, l := bits.Mul64(k, count)
		q, _ := bits.Div64(h, l, n) // h < k < n, as count < 2^64: no overflow
		return q
	}
	lo = at(k)
	if k+1 == n {
		return lo, count
	}
	return lo, at(k + 1)
}

// sampleLen returns the number of record numbers Sample(count, n, seed) yields.
func sampleLen(count, n uint64) uint64 {
	switch {
	case n == 0 || count == 0:
		return 0
	case n >= count:
		return count
	}
	return max(n, 2)
}
