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
		{"unknown type", Record{Type: "bitmap"}, ErrBadType, `"bitmap"`},
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
	if err := (&Record{Key: []byte("x"), Type: "blob"}).WriteTo(w); !errors.Is(err, ErrBadType) {
		t.Fatalf("unknown type: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if s := w.Stats(); s.Keys != 5 || s.Expires != 1 || s.Members != 8 {
		t.Fatalf("stats %+v, want 5 keys, 1 expiry, 8 members", s)
	}
}

// TestWriteToCollector: a Collector keeps what WriteTo writes, streams and field TTLs
// included.
func TestWriteToCollector(t *testing.T) {
	for _, r := range []Record{
		{Key: []byte("h"), Type: Hash, ExpireAtMS: 9, Members: []Member{{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: 5}, {Name: []byte("b"), Value: []byte("2")}}},
		{Key: []byte("x"), Type: Stream, ExpireAtMS: 7,
			Entries:    []StreamEntry{{ID: StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
			StreamMeta: StreamMeta{LastID: StreamID{Ms: 2}, EntriesAdded: 2},
			Groups: []StreamGroup{{Name: []byte("g"), LastID: StreamID{Ms: 1}, EntriesRead: 1, Pending: []StreamPending{{ID: StreamID{Ms: 1}, DeliveryTimeMS: 3, DeliveryCount: 1}},
				Consumers: []StreamConsumer{{Name: []byte("c"), SeenTimeMS: 3, ActiveTimeMS: 3, Pending: []StreamID{{Ms: 1}}}}}}},
	} {
		var c Collector
		if err := r.WriteTo(&c); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c.Rec, r) {
			t.Errorf("wrote %+v, collected %+v", r, c.Rec)
		}
	}
}
