package spec

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/rdbgen/rdbgen/memory"
)

// TestEstimateMemoryScaled: a spec larger than MemorySampleKeys is estimated from a scaled
// sample within 2% of the estimate over every record, and the spec's counts are restored.
func TestEstimateMemoryScaled(t *testing.T) {
	if testing.Short() {
		t.Skip("walks 3M records")
	}
	src, err := os.ReadFile("../examples/mass-insert.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, scale := range []float64{0.3, 0.25} {
		s, err := Parse("mass-insert.yaml", src)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetParams(Params{Seed: 1, CountScale: scale}); err != nil {
			t.Fatal(err)
		}
		keys := s.Keys()
		whole, err := memory.Estimate(context.Background(), s, memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, exact, err := s.EstimateMemory(context.Background(), memory.Options{})
		if err != nil || exact {
			t.Fatalf("EstimateMemory: exact %v, %v", exact, err)
		}
		if s.Keys() != keys {
			t.Fatalf("the spec holds %d keys after the estimate, %d before", s.Keys(), keys)
		}
		if got.Keys != whole.Keys || math.Abs(float64(got.Bytes-whole.Bytes))/float64(whole.Bytes) > 0.02 {
			t.Errorf("scale %v: scaled estimate %d keys, %d bytes; whole %d keys, %d bytes", scale, got.Keys, got.Bytes, whole.Keys, whole.Bytes)
		}
	}
}
