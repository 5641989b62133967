package importer

import (
	"bytes"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkJSONBigRecord reads one JSON record of a long string value, and one of a long list,
// and reports the bytes allocated per byte of input ("alloc/input") and the heap that stays
// in use for the record once it is read, per byte of input ("live/input"): what a record
// costs in memory. A list costs more than its text: each element is a record.Member.
func BenchmarkJSONBigRecord(b *testing.B) {
	value := `{"key":"big","value":"` + strings.Repeat("abcdefgh", 4<<20) + `"}` // 32 MiB
	var list bytes.Buffer
	list.WriteString(`{"key":"l","type":"list","values":[`)
	for i := range 1 << 20 {
		if i > 0 {
			list.WriteByte(',')
		}
		list.WriteString(`"member` + strconv.Itoa(i) + `"`)
	}
	list.WriteString("]}")
	for _, bc := range []struct {
		name string
		in   []byte
	}{{"value-32MiB", []byte(value)}, {"list-1M", list.Bytes()}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			var alloc, heap float64
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				r := NewJSONReader(bytes.NewReader(bc.in))
				rec, err := r.Read()
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				alloc += float64(after.TotalAlloc - before.TotalAlloc)
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap += float64(after.HeapAlloc) - float64(before.HeapAlloc)
				runtime.KeepAlive(r)
				if _, err := r.Read(); err != io.EOF || rec.Key == nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(alloc/float64(b.N)/float64(len(bc.in)), "alloc/input")
			b.ReportMetric(heap/float64(b.N)/float64(len(bc.in)), "live/input")
		})
	}
}
