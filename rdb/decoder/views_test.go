package decoder_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// viewRecords are n keys of every type whose encoding the reader takes from the buffer
// without a copy when it is whole there (listpacks, intsets, ziplists, LZF strings) or
// copies when it straddles the buffer's end: strings and fields of text that compresses.
func viewRecords(n int) []record.Record {
	r := rand.New(rand.NewPCG(5, 6))
	text := func() []byte {
		return []byte(strings.Repeat(fmt.Sprintf("text %d ", r.IntN(10)), 1+r.IntN(60)))
	}
	var recs []record.Record
	for i := range n {
		rec := record.Record{Key: fmt.Appendf(nil, "key:%06d", i), ExpireAtMS: int64(r.IntN(2)) * 1700000000000}
		m := 1 + r.IntN(40)
		switch i % 5 {
		case 0:
			rec.Type, rec.Value = record.String, text()
		case 1:
			rec.Type = record.Hash
			for j := range m {
				rec.Members = append(rec.Members, record.Member{Name: fmt.Appendf(nil, "field%d", j), Value: text()})
			}
		case 2:
			rec.Type = record.Set
			for j := range m {
				rec.Members = append(rec.Members, record.Member{Name: fmt.Appendf(nil, "%d", j*1000+r.IntN(1000))})
			}
		case 3:
			rec.Type = record.ZSet
			for j := range m {
				rec.Members = append(rec.Members, record.Member{Name: fmt.Appendf(nil, "m%d", j), Score: float64(r.IntN(1000)) / 8})
			}
		default:
			rec.Type = record.List
			for range m {
				rec.Members = append(rec.Members, record.Member{Name: text()})
			}
		}
		recs = append(recs, rec)
	}
	return recs
}

// A blob or an LZF string is read alike whole in the buffer (a view, decompressed from
// it) and across the buffer's end (copied): the calls, offsets and stats are the same
// with a 64 KiB buffer, where many straddle it, as with a 16 MiB one, where none does.
func TestBufferSizes(t *testing.T) {
	for _, target := range []string{"redis-5.0", "redis-7.0"} {
		for _, compress := range []bool{true, false} {
			path := writeFile(t, viewRecords(3000), encoder.Options{Target: target, DisableCompression: !compress})
			var got [2][]string
			for i, size := range []int{64 << 10, 16 << 20} {
				f, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				rd, err := decoder.NewReader(f, decoder.Options{BufferSize: size, OnDuplicate: record.DupError})
				if err != nil {
					t.Fatal(err)
				}
				sink := &traceSink{rd: rd, values: true}
				err = rd.WriteTo(context.Background(), sink)
				f.Close()
				got[i] = append(sink.lines, fmt.Sprintf("stats %+v", rd.Stats()), fmt.Sprintf("error %v", err))
			}
			if len(got[0]) < 3000 || got[0][len(got[0])-1] != "error <nil>" {
				t.Fatalf("%s, compress %v: %d calls, %.300q", target, compress, len(got[0]), got[0][len(got[0])-1])
			}
			for i := range max(len(got[0]), len(got[1])) {
				if i >= len(got[0]) || i >= len(got[1]) || got[0][i] != got[1][i] {
					t.Fatalf("%s, compress %v: call %d: 64 KiB %.300q, 16 MiB %.300q", target, compress, i, at(got[0], i), at(got[1], i))
				}
			}
		}
	}
}
