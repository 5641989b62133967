package filter_test

import (
	"fmt"
	"testing"

	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/record"
)

// BenchmarkFilter passes 10,000 hashes of 10 fields, whose fields expire after Now, through
// a Filter into record.Discard: with a glob that keeps a ninth of the keys (the Gate alone),
// and with DropExpiredFields (the Gate and the stage that drops expired fields, which
// drops none here). go test -run '^$' -bench Filter ./filter
func BenchmarkFilter(b *testing.B) {
	const keys, fields = 10_000, 10
	names := make([][]byte, fields)
	for j := range names {
		names[j] = fmt.Appendf(nil, "field%d", j)
	}
	value := []byte("value")
	exp := now.UnixMilli() + 1000
	for _, c := range []struct {
		name string
		opts filter.Options
	}{
		{"match", filter.Options{Match: "key:1*"}},
		{"drop-expired-fields", filter.Options{DropExpiredFields: true, Now: now}},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := record.Header{Type: record.Hash, Len: fields, MinFieldExpireAtMS: exp}
			m := record.Member{Value: value, ExpireAtMS: exp}
			b.ReportAllocs()
			for b.Loop() {
				f, err := filter.New(record.Discard{}, c.opts)
				if err != nil {
					b.Fatal(err)
				}
				f.BeginDB(0, record.Counts{})
				for i := range keys {
					h.Key = fmt.Appendf(h.Key[:0], "key:%d", i)
					if err := f.Begin(&h); err != nil {
						b.Fatal(err)
					}
					for _, name := range names {
						m.Name = name
						if err := f.Add(&m); err != nil {
							b.Fatal(err)
						}
					}
					if err := f.End(nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(keys)*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
		})
	}
}
