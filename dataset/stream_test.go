package dataset

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

func TestStreams(t *testing.T) {
	for _, mode := range []ValueMode{ValueSame, ValueRandom} {
		d := Config{Count: 30, KeyPrefix: "s:", KeyStart: 1, Type: record.Stream, Members: Range{1, 150},
			Value: mode, Seed: 4, DB: 2, BaseTimeMS: 1700000000000}
		if mode == ValueRandom {
			d.ValueSize = 20
		}
		must(t, d.Validate())
		var c record.Recorder
		must(t, d.WriteTo(context.Background(), &c))
		if len(c.Records) != int(d.Count) {
			t.Fatalf("%s: %d records, want %d", mode, len(c.Records), d.Count)
		}
		for i, got := range c.Records {
			want := d.Record(uint64(i))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: record %d written as\n%+v\nRecord gives\n%+v", mode, i, got, want)
			}
			if n := d.MemberCount(uint64(i)); uint64(len(want.Members)) != n {
				t.Fatalf("%s: record %d has %d entries, want %d", mode, i, len(want.Members), n)
			}
			for j, e := range want.Members {
				if e.ID != (record.StreamID{Ms: 1700000000001 + uint64(j)}) || string(e.Fields[0]) != StreamField {
					t.Fatalf("%s: entry %d: %v %q", mode, j, e.ID, e.Fields)
				}
				if mode == ValueRandom && len(e.Fields[1]) != 20 {
					t.Fatalf("random value of %d bytes", len(e.Fields[1]))
				}
			}
		}
		// And the encoder takes them.
		w, err := rdbsink.NewWriter(&bytes.Buffer{}, encoder.Options{Target: "redis-7.2"})
		must(t, err)
		must(t, d.WriteTo(context.Background(), w))
		must(t, w.Close())
	}
	if got := (&Config{Type: record.Stream, Members: Range{1, 1}}).Record(0).Members[0].ID; got != (record.StreamID{Ms: 1}) {
		t.Fatalf("without a base time the first id is %v, want 1-0", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
