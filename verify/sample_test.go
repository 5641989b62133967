package verify

import (
	"math"
	"slices"
	"testing"
)

func TestSample(t *testing.T) {
	tests := []struct {
		name        string
		count, n    uint64
		wantLen     int
		wantAll     bool // every number of the range
		checkSpread bool
	}{
		{"empty range", 0, 10, 0, false, false},
		{"no sample", 10, 0, 0, false, false},
		{"one of one", 1, 1, 1, true, false},
		{"one of many", 100, 1, 2, false, false}, // first and last, whatever n
		{"two", 100, 2, 2, false, false},
		{"n equals count", 50, 50, 50, true, false},
		{"n above count", 50, 1000, 50, true, false},
		{"n one below count", 50, 49, 49, false, false},
		{"default size", 1_000_000, 1000, 1000, false, true},
		{"whole uint64 range", math.MaxUint64, 1000, 1000, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Collect(Sample(tt.count, tt.n, 7))
			if len(got) != tt.wantLen || sampleLen(tt.count, tt.n) != uint64(tt.wantLen) {
				t.Fatalf("%d numbers, sampleLen %d; want %d", len(got), sampleLen(tt.count, tt.n), tt.wantLen)
			}
			if len(got) == 0 {
				return
			}
			if got[0] != 0 || got[len(got)-1] != tt.count-1 {
				t.Fatalf("first %d, last %d: want 0 and %d", got[0], got[len(got)-1], tt.count-1)
			}
			for i := 1; i < len(got); i++ {
				if got[i] <= got[i-1] {
					t.Fatalf("not strictly increasing (a duplicate or out of order) at %d: %d after %d", i, got[i], got[i-1])
				}
			}
			if got[len(got)-1] >= tt.count {
				t.Fatalf("%d is out of the range [0, %d)", got[len(got)-1], tt.count)
			}
			if tt.wantAll {
				for i, v := range got {
					if v != uint64(i) {
						t.Fatalf("number %d is %d: not every record", i, v)
					}
				}
			}
			if tt.checkSpread {
				// Each stratum holds one number: the k-th lies in [k*count/n, (k+1)*count/n).
				for k, v := range got {
					lo, hi := stratum(tt.count, tt.n, uint64(k))
					if v < lo || v >= hi {
						t.Fatalf("number %d is %d, outside its stratum [%d, %d)", k, v, lo, hi)
					}
				}
			}
		})
	}
}

func TestSampleDeterministic(t *testing.T) {
	a := slices.Collect(Sample(1_000_000, 100, 42))
	b := slices.Collect(Sample(1_000_000, 100, 42))
	c := slices.Collect(Sample(1_000_000, 100, 43))
	if !slices.Equal(a, b) {
		t.Fatal("the same seed drew two samples")
	}
	if slices.Equal(a, c) {
		t.Fatal("two seeds drew the same sample")
	}
	// Only the ends are fixed: the middle numbers differ between seeds.
	same := 0
	for i := 1; i < len(a)-1; i++ {
		if a[i] == c[i] {
			same++
		}
	}
	if same > 5 {
		t.Fatalf("%d of 98 middle numbers equal under two seeds", same)
	}
}

func TestSampleStopsEarly(t *testing.T) {
	n := 0
	for range Sample(1000, 100, 1) {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("yielded %d", n)
	}
	n = 0
	for range Sample(10, 100, 1) {
		n++
		break
	}
	if n != 1 {
		t.Fatalf("yielded %d", n)
	}
}

func TestStratumCoversRange(t *testing.T) {
	for _, c := range []struct{ count, n uint64 }{{10, 3}, {7, 7}, {1000, 999}, {math.MaxUint64, 3}} {
		var next uint64
		for k := range c.n {
			lo, hi := stratum(c.count, c.n, k)
			if lo != next || hi <= lo {
				t.Fatalf("count %d n %d: stratum %d is [%d, %d), want it to start at %d and be non-empty", c.count, c.n, k, lo, hi, next)
			}
			next = hi
		}
		if next != c.count {
			t.Fatalf("count %d n %d: strata end at %d", c.count, c.n, next)
		}
	}
}

func BenchmarkSample(b *testing.B) {
	for b.Loop() {
		for range Sample(10_000_000, 1000, 1) {
		}
	}
}
