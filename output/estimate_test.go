package output_test

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"testing"

	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// countedSource counts the readings of its records.
type countedSource struct {
	record.Records
	reads int
}

func (s *countedSource) WriteTo(ctx context.Context, sink record.Sink) error {
	s.reads++
	return s.Records.WriteTo(ctx, sink)
}

// TestEstimateWriteReadsOnce: an estimate reads its source once, and finds the size and the
// memory that a write and an estimate of their own find, each reading the source.
func TestEstimateWriteReadsOnce(t *testing.T) {
	var rs record.Records
	for i := range 300 {
		r := record.Record{Key: fmt.Appendf(nil, "k%d", i), Type: record.String, Value: fmt.Appendf(nil, "%d", i*i), ExpireAtMS: int64(i%3) * 4102444800000}
		if i%2 == 1 {
			r = record.Record{Key: r.Key, Type: record.Hash}
			for j := range i % 40 {
				r.Members = append(r.Members, record.Member{Name: fmt.Appendf(nil, "f%d", j), Value: fmt.Appendf(nil, "v%d", j)})
			}
			if len(r.Members) == 0 {
				r.Type, r.Value = record.String, []byte("v")
			}
		}
		rs = append(rs, r)
	}
	ctx := context.Background()
	for _, target := range []string{"redis-5.0", "redis-7.4"} {
		opts := output.Options{Encoder: encoder.Options{Target: target}}
		mopts := memory.Options{Target: target}
		src := &countedSource{Records: rs}
		est, err := output.EstimateWrite(ctx, src, opts, mopts)
		if err != nil || src.reads != 1 {
			t.Fatalf("%s: %v, %d readings of the source, want 1", target, err, src.reads)
		}
		want, err := output.Write(ctx, io.Discard, rs, opts)
		if err != nil {
			t.Fatal(err)
		}
		wantMem, err := memory.Estimate(ctx, rs, mopts)
		if err != nil {
			t.Fatal(err)
		}
		if est.Keys != want.Stats.Keys || est.Expires != want.Stats.Expires || est.Bytes != want.Stats.Bytes || !est.BytesExact ||
			!reflect.DeepEqual(est.Memory, wantMem) || !est.MemoryExact {
			t.Errorf("%s: %+v; a write alone %+v, an estimate alone %+v", target, est, want.Stats, wantMem)
		}
	}
}
