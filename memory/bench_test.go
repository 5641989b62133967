package memory_test

import (
	"context"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
)

// BenchmarkEstimator measures how fast an Estimator takes records, against the time the
// dataset takes to produce them: go test -run '^$' -bench Estimator ./memory
func BenchmarkEstimator(b *testing.B) {
	cases := []struct {
		name string
		d    dataset.Config
	}{
		{"strings", dataset.Config{Count: 100_000, KeyPrefix: "key", KeyStart: 1}},
		{"hash-10", dataset.Config{Count: 10_000, KeyPrefix: "key", KeyStart: 1, Type: record.Hash, Members: dataset.Range{Min: 10, Max: 10}}},
		{"zset-1000", dataset.Config{Count: 100, KeyPrefix: "key", KeyStart: 1, Type: record.ZSet, Members: dataset.Range{Min: 1000, Max: 1000}}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e, err := memory.New(memory.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if err := c.d.WriteTo(context.Background(), e); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(c.d.Count)*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
		})
	}
}
