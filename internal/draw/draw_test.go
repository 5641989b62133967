package draw

import (
	"testing"
	"time"
)

func TestHashKnownValues(t *testing.T) {
	// The first outputs of the reference splitmix64 generator seeded with 0: its state steps by
	// the golden gamma, and Hash applies the step itself.
	if got := Hash(0); got != 0xe220a8397b1dcdaf {
		t.Fatalf("Hash(0) = %#x", got)
	}
	if got := Hash(0x9e3779b97f4a7c15); got != 0x6e789e6aa1b965f4 {
		t.Fatalf("Hash(gamma) = %#x", got)
	}
}

func TestBetween(t *testing.T) {
	tests := []struct{ min, max uint64 }{{5, 5}, {7, 3}, {0, 1}, {10, 20}, {0, 1<<64 - 2}}
	for _, tt := range tests {
		seen := map[uint64]bool{}
		for i := range uint64(2000) {
			v := Between(tt.min, tt.max, 42, i)
			if tt.max <= tt.min {
				if v != tt.min {
					t.Fatalf("Between(%d, %d) = %d, want min", tt.min, tt.max, v)
				}
				continue
			}
			if v < tt.min || v > tt.max {
				t.Fatalf("Between(%d, %d) = %d, out of range", tt.min, tt.max, v)
			}
			if v != Between(tt.min, tt.max, 42, i) {
				t.Fatal("not deterministic")
			}
			seen[v] = true
		}
		if tt.min == 10 && len(seen) != 11 {
			t.Fatalf("Between(10, 20) drew %d distinct values of 11", len(seen))
		}
	}
}

func TestExpireAtMS(t *testing.T) {
	const base = 1_900_000_000_000
	if got := ExpireAtMS(base, 0, time.Second, 1, 1); got != 0 {
		t.Fatalf("no ttl: %d", got)
	}
	if got := ExpireAtMS(base, time.Minute, 0, 1, 1); got != base+60_000 {
		t.Fatalf("no jitter: %d", got)
	}
	lo, hi := int64(1<<62), int64(0)
	for i := range uint64(10000) {
		at := ExpireAtMS(base, time.Minute, time.Second, 7, i)
		lo, hi = min(lo, at), max(hi, at)
	}
	if lo < base+59_000 || hi > base+61_000 || hi-lo < 1900 {
		t.Fatalf("expiries span [%d, %d], want most of %d ± 1000", lo, hi, base+60_000)
	}
}
