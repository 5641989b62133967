package export

import (
	"io"
	"strconv"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// BenchmarkWriter writes keys of the default dataset's shape (key100000001, the value the
// same) and hashes of 10 fields, in each format, to io.Discard, and reports the MB/s of
// output: the writer alone, without the reading of a dump.
func BenchmarkWriter(b *testing.B) {
	for _, f := range Formats {
		for _, typ := range []record.Type{record.String, record.Hash} {
			b.Run(string(f)+"/"+string(typ), func(b *testing.B) {
				w, err := NewWriter(io.Discard, Options{Format: f, Detail: func(d *Detail) { d.Encoding, d.Memory = "string", 72 }})
				if err != nil {
					b.Fatal(err)
				}
				fields := make([]record.Member, 10)
				for i := range fields {
					fields[i] = record.Member{Name: []byte("field:" + strconv.Itoa(i)), Value: []byte("value:" + strconv.Itoa(i))}
				}
				h := record.Header{Type: typ, Len: uint64(len(fields))}
				key := []byte("key")
				if err := w.BeginDB(0, record.Counts{}); err != nil {
					b.Fatal(err)
				}
				before := w.Written()
				n := 0
				for b.Loop() {
					key = strconv.AppendInt(key[:3], int64(100000001+n), 10)
					h.Key, h.Value = key, key
					if typ == record.String {
						h.Value = key
					}
					if err := w.Begin(&h); err != nil {
						b.Fatal(err)
					}
					if typ == record.Hash {
						for i := range fields {
							if err := w.Add(&fields[i]); err != nil {
								b.Fatal(err)
							}
						}
						if err := w.End(nil); err != nil {
							b.Fatal(err)
						}
					}
					n++
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(w.Written()-before)/1e6/b.Elapsed().Seconds(), "MB/s")
			})
		}
	}
}
