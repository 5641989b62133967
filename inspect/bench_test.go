package inspect_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// BenchmarkInspect inspects files of the default dataset (1M strings; with and without the
// figures per prefix) and of 200k hashes of 10 fields (redis-7.0 listpacks), reporting keys/s.
func BenchmarkInspect(b *testing.B) {
	hashes := dataset.Config{Count: 200_000, KeyPrefix: "key", KeyStart: 1, Type: record.Hash, Members: dataset.Range{Min: 10, Max: 10}}
	for _, c := range []struct {
		name   string
		d      dataset.Config
		target string
		opts   inspect.Options
	}{
		{"default-1M", dataset.Config{Count: 1_000_000, KeyPrefix: "key", KeyStart: 100000001}, "", inspect.Options{}},
		{"default-1M-prefixes", dataset.Config{Count: 1_000_000, KeyPrefix: "key", KeyStart: 100000001}, "", inspect.Options{Prefixes: &inspect.PrefixOptions{}}},
		{"hash-200k-10-fields", hashes, "redis-7.0", inspect.Options{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "dump.rdb")
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := output.Write(context.Background(), f, &c.d, output.Options{Encoder: encoder.Options{Target: c.target}}); err != nil {
				b.Fatal(err)
			}
			if err := f.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := inspect.File(context.Background(), path, c.opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(c.d.Count)*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
		})
	}
}
