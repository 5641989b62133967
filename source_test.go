package rdbgen

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
)

// TestDatasetSourceMatchesGenerate checks that the dataset as a record.Source writes the
// same bytes as Generate, for strings and every collection type.
func TestDatasetSourceMatchesGenerate(t *testing.T) {
	created := time.Unix(1700000000, 0)
	for _, typ := range []dataset.Type{dataset.TypeString, dataset.TypeHash, dataset.TypeList, dataset.TypeSet, dataset.TypeZSet} {
		d := &dataset.Spec{Count: 300, KeyPrefix: "k", KeyStart: 1, Type: typ,
			TTL: time.Hour, BaseTimeMS: created.UnixMilli(), Seed: 3}
		if typ.IsCollection() {
			d.Members = dataset.Range{Min: 1, Max: 20}
		}
		opts := encoder.Options{Target: "redis-7.0", CreatedAt: created}
		var a, b bytes.Buffer
		if _, err := Generate(context.Background(), &a, d, opts, nil); err != nil {
			t.Fatal(err)
		}
		w, err := encoder.NewWriter(&b, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.WriteTo(context.Background(), w); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: WriteTo wrote %d bytes that differ from Generate's %d", typ, b.Len(), a.Len())
		}
	}
}
