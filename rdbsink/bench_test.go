package rdbsink_test

import (
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkWriteString writes a short string key through the Sink (Begin with a Header, as
// sources keep one) and through WriteString (the fast path of a string dataset); compare
// with encoder's BenchmarkWriteString, the writer alone.
func BenchmarkWriteString(b *testing.B) {
	key := []byte("key100000001")
	open := func(b *testing.B) *rdbsink.Writer {
		w, err := rdbsink.NewWriter(discard{}, encoder.Options{})
		must(b, err)
		must(b, w.BeginDB(0, record.Counts{}))
		b.SetBytes(27)
		b.ReportAllocs()
		return w
	}
	b.Run("Begin", func(b *testing.B) {
		w := open(b)
		h := record.Header{Key: key, Type: record.String, Value: key}
		for b.Loop() {
			if err := w.Begin(&h); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "keys/s")
	})
	b.Run("WriteString", func(b *testing.B) {
		w := open(b)
		for b.Loop() {
			if err := w.WriteString(key, key, 0); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "keys/s")
	})
}
