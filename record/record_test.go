package record

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/encoder"
)

func TestCheck(t *testing.T) {
	m := []Member{{Name: []byte("m"), Score: 1}}
	tests := []struct {
		name string
		r    Record
		want error  // nil: valid, unless msg is set
		msg  string // a part of the message
	}{
		{"string", Record{Key: []byte("k"), Type: String}, nil, ""},
		{"empty type is string", Record{Key: []byte("k")}, nil, ""},
		{"zset", Record{Type: ZSet, Members: m}, nil, ""},
		{"largest db", Record{DB: MaxDB}, nil, ""},
		{"unknown type", Record{Type: "streams"}, ErrBadType, `"streams"`},
		{"empty hash", Record{Type: Hash}, ErrEmpty, "hash"},
		{"nan score", Record{Type: ZSet, Members: []Member{{Name: []byte("n"), Score: math.NaN()}}}, ErrNaNScore, `"n"`},
		{"nan ignored outside sorted sets", Record{Type: Set, Members: []Member{{Name: []byte("n"), Score: math.NaN()}}}, nil, ""},
		{"negative expiry", Record{ExpireAtMS: -1}, nil, "expiry -1 ms"},
		{"negative db", Record{DB: -1}, nil, "db -1 out of range"},
		{"db past the largest", Record{DB: MaxDB + 1}, nil, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.r.Check()
			if tt.want == nil && tt.msg == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || tt.want != nil && !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v, want %v containing %q", err, tt.want, tt.msg)
			}
		})
	}
}

func TestWriteTo(t *testing.T) {
	w, err := encoder.NewWriter(new(bytes.Buffer), encoder.Options{CheckDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.BeginDB(0, encoder.DBInfo{Keys: 5, Expires: 1}); err != nil {
		t.Fatal(err)
	}
	two := []Member{{Name: []byte("a"), Value: []byte("1"), Score: 1}, {Name: []byte("b"), Value: []byte("2"), Score: 2}}
	for _, r := range []Record{
		{Key: []byte("s"), Value: []byte("v"), ExpireAtMS: 1893456000000},
		{Key: []byte("h"), Type: Hash, Members: two},
		{Key: []byte("l"), Type: List, Members: two},
		{Key: []byte("set"), Type: Set, Members: two},
		{Key: []byte("z"), Type: ZSet, Members: two},
	} {
		if err := r.WriteTo(w); err != nil {
			t.Fatalf("%s: %v", r.Key, err)
		}
	}
	if err := (&Record{Key: []byte("x"), Type: "streams"}).WriteTo(w); !errors.Is(err, ErrBadType) {
		t.Fatalf("unknown type: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if s := w.Stats(); s.Keys != 5 || s.Expires != 1 || s.Members != 8 {
		t.Fatalf("stats %+v, want 5 keys, 1 expiry, 8 members", s)
	}
}

// TestWriteToCollector writes streams and hashes with field TTLs to a Collector, which must
// give the record back, and to a Writer for Redis 7.4, which must take them.
func TestWriteToCollector(t *testing.T) {
	recs := []Record{
		{Key: []byte("s"), Type: Stream, ExpireAtMS: 1893456000000,
			Entries: []StreamEntry{
				{ID: StreamID{Ms: 1, Seq: 1}, Fields: [][]byte{[]byte("a"), []byte("1")}},
				{ID: StreamID{Ms: 2}, Fields: [][]byte{[]byte("b"), []byte("2"), []byte("c"), []byte("3")}},
			},
			StreamMeta: StreamMeta{LastID: StreamID{Ms: 9}, MaxDeletedID: StreamID{Ms: 5}, EntriesAdded: 4},
			Groups: []StreamGroup{{Name: []byte("g"), LastID: StreamID{Ms: 1, Seq: 1}, EntriesRead: 1,
				Pending:   []StreamPending{{ID: StreamID{Ms: 1, Seq: 1}, DeliveryTimeMS: 7, DeliveryCount: 2}},
				Consumers: []StreamConsumer{{Name: []byte("c"), SeenTimeMS: 7, ActiveTimeMS: 7, Pending: []StreamID{{Ms: 1, Seq: 1}}}}}}},
		{Key: []byte("empty stream"), Type: Stream, StreamMeta: StreamMeta{LastID: StreamID{Ms: 5, Seq: 5}}},
		{Key: []byte("h"), Type: Hash, Members: []Member{
			{Name: []byte("a"), Value: []byte("1")},
			{Name: []byte("b"), Value: []byte("2"), ExpireAtMS: 4102444800000},
			{Name: []byte("c"), Value: []byte("3"), ExpireAtMS: 4102444700000}}},
	}
	w, err := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.4"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.BeginDB(0, encoder.DBInfo{}); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		var c Collector
		if err := r.WriteTo(&c); err != nil {
			t.Fatalf("%s: %v", r.Key, err)
		}
		if r.Type == Hash {
			c.Rec.Members = append([]Member(nil), c.Rec.Members...)
		}
		if !reflect.DeepEqual(c.Rec, r) {
			t.Fatalf("%s: collected\n%+v\nwant\n%+v", r.Key, c.Rec, r)
		}
		if err := r.WriteTo(w); err != nil {
			t.Fatalf("%s: %v", r.Key, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
