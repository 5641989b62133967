package dataset

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

// wantsSink keeps the records of the keys it wants: those whose last digit is 0, 3, 6 or 9.
type wantsSink struct {
	record.Recorder
	asked int
}

func (s *wantsSink) Wants(key []byte) bool {
	s.asked++
	return key[len(key)-1]%3 == 0
}

// TestKeyFilterLeavesRecordsOut: a sink that is a record.KeyFilter gets the records of the
// keys it wants alone, each as it is when every record is written (values computed only
// for them: the cursor's values do not depend on the records before), and is asked of every
// key.
func TestKeyFilterLeavesRecordsOut(t *testing.T) {
	base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	sets := []*Config{
		{Count: 3000, KeyPrefix: "r", KeyStart: 1, Value: ValueRandom, ValueSize: 33, Seed: 7, TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base},
		{Count: 500, KeyPrefix: "h", KeyStart: 1, Type: record.Hash, Members: Range{Min: 1, Max: 9}, Seed: 3},
		{Count: 200, KeyPrefix: "x", KeyStart: 1, Type: record.Stream, Members: Range{Min: 1, Max: 4}, Seed: 3, BaseTimeMS: base},
	}
	for _, d := range sets {
		t.Run(string(d.Type), func(t *testing.T) {
			var all record.Recorder
			if err := d.WriteTo(context.Background(), &all); err != nil {
				t.Fatal(err)
			}
			var some wantsSink
			if err := d.WriteTo(context.Background(), &some); err != nil {
				t.Fatal(err)
			}
			want := slices.DeleteFunc(slices.Clone(all.Records), func(r record.Record) bool { return r.Key[len(r.Key)-1]%3 != 0 })
			if some.asked != int(d.Count) || len(want) == 0 || len(want) == len(all.Records) {
				t.Fatalf("asked %d of %d keys; wants %d of %d records", some.asked, d.Count, len(want), len(all.Records))
			}
			if len(some.Records) != len(want) {
				t.Fatalf("got %d records, want %d", len(some.Records), len(want))
			}
			for i, r := range some.Records {
				if !reflect.DeepEqual(r, want[i]) {
					t.Fatalf("record %d: %+v, want %+v", i, r, want[i])
				}
			}
		})
	}
}
