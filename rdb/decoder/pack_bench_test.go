package decoder_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// BenchmarkReadPacks reads small collections, each one blob: 20k hashes of 10 fields, 20k
// sorted sets of 10 members and 20k sets of 10 integers, as listpacks and intsets
// (redis-7.0) and as ziplists and intsets (redis-5.0).
func BenchmarkReadPacks(b *testing.B) {
	const n = 20_000
	for _, target := range []string{"redis-7.0", "redis-5.0"} {
		b.Run(target, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "packs.rdb")
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			w, err := rdbsink.NewWriter(f, encoder.Options{Target: target})
			if err == nil {
				err = w.BeginDB(0, record.Counts{})
			}
			key := []byte("k")
			for i := 0; i < 3*n && err == nil; i++ {
				key = strconv.AppendInt(key[:1], int64(i), 10)
				typ := []record.Type{record.Hash, record.ZSet, record.Set}[i%3]
				err = w.Begin(&record.Header{Key: key, Type: typ, Len: 10})
				for j := 0; j < 10 && err == nil; j++ {
					m := record.Member{Name: []byte("field" + strconv.Itoa(j)), Value: []byte("value" + strconv.Itoa(j*1000)), Score: float64(j) + 0.5}
					if typ == record.Set {
						m = record.Member{Name: strconv.AppendInt(nil, int64(i*10+j), 10)}
					}
					err = w.Add(&m)
				}
				if err == nil {
					err = w.End(nil)
				}
			}
			if err == nil {
				err = w.Close()
			}
			if err != nil {
				b.Fatal(err)
			}
			f.Close()
			for b.Loop() {
				var s nopSink
				if err := (decoder.File{Path: path}).WriteTo(context.Background(), &s); err != nil {
					b.Fatal(err)
				}
				if s.keys != 3*n || s.members != 30*n {
					b.Fatalf("read %d keys, %d members", s.keys, s.members)
				}
			}
			b.ReportMetric(float64(30*n*b.N)/b.Elapsed().Seconds(), "members/s")
		})
	}
}
