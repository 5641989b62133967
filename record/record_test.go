package record

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
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

// trace is a Sink that notes every call, for tests of the order of calls.
type trace struct{ calls []string }

func (t *trace) BeginDB(db int, c Counts) error {
	t.calls = append(t.calls, fmt.Sprintf("db %d %d/%d", db, c.Keys, c.Expires))
	return nil
}

func (t *trace) Begin(h *Header) error {
	t.calls = append(t.calls, fmt.Sprintf("begin %s %s %q n=%d exp=%d min=%d", h.Type, h.Key, h.Value, h.Len, h.ExpireAtMS, h.MinFieldExpireAtMS))
	if h.ModuleID != 0 {
		t.calls[len(t.calls)-1] += fmt.Sprintf(" module=%s/%d", ModuleName(h.ModuleID), ModuleEncVer(h.ModuleID))
	}
	return nil
}

func (t *trace) WriteModuleAux(a *ModuleAux) error {
	t.calls = append(t.calls, fmt.Sprintf("module aux %s when=%d %q", ModuleName(a.ModuleID), a.When, a.Value))
	return nil
}

func (t *trace) Add(m *Member) error {
	t.calls = append(t.calls, fmt.Sprintf("add %s=%s %g %d %s %q", m.Name, m.Value, m.Score, m.ExpireAtMS, m.ID, m.Fields))
	return nil
}

func (t *trace) End(st *StreamTail) error {
	if st == nil {
		t.calls = append(t.calls, "end")
		return nil
	}
	t.calls = append(t.calls, fmt.Sprintf("end stream len=%d groups=%d", st.Meta.Length, len(st.Groups)))
	return nil
}

func (t *trace) WriteFunction(code []byte) error {
	t.calls = append(t.calls, "function "+string(code))
	return nil
}

// TestWriteTo writes a record of each type, the empty type included, and checks the calls
// a Sink receives: the header's type, count and smallest field expiry, then the members and
// the tail.
func TestWriteTo(t *testing.T) {
	two := []Member{{Name: []byte("a"), Value: []byte("1"), Score: 1}, {Name: []byte("b"), Value: []byte("2"), Score: 2}}
	ttl := []Member{{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: 9}, {Name: []byte("b"), Value: []byte("2")}, {Name: []byte("c"), Value: []byte("3"), ExpireAtMS: 5}}
	tests := []struct {
		r    Record
		want []string
	}{
		{Record{Key: []byte("s"), Value: []byte("v"), ExpireAtMS: 1893456000000}, []string{`begin string s "v" n=0 exp=1893456000000 min=0`}},
		{Record{Key: []byte("h"), Type: Hash, Members: two}, []string{`begin hash h "" n=2 exp=0 min=0`, `add a=1 1 0 0-0 []`, `add b=2 2 0 0-0 []`, "end"}},
		{Record{Key: []byte("t"), Type: Hash, Members: ttl}, []string{`begin hash t "" n=3 exp=0 min=5`, `add a=1 0 9 0-0 []`, `add b=2 0 0 0-0 []`, `add c=3 0 5 0-0 []`, "end"}},
		{Record{Key: []byte("l"), Type: List, Members: two[:1], ExpireAtMS: 3}, []string{`begin list l "" n=1 exp=3 min=0`, `add a=1 1 0 0-0 []`, "end"}},
		{Record{Key: []byte("x"), Type: Stream, Members: []Member{{ID: StreamID{1, 2}, Fields: [][]byte{[]byte("f"), []byte("v")}}}, Stream: StreamTail{Meta: StreamMeta{Length: 1}, Groups: make([]StreamGroup, 2)}},
			[]string{`begin stream x "" n=0 exp=0 min=0`, `add = 0 0 1-2 ["f" "v"]`, "end stream len=1 groups=2"}},
		{Record{Key: []byte("m"), Type: Module, ModuleID: mtID, Value: []byte("\x02\x01\x00"), ExpireAtMS: 4},
			[]string{`begin module m "\x02\x01\x00" n=0 exp=4 min=0 module=rdbgen-mt/1`}},
	}
	for _, tt := range tests {
		var tr trace
		if err := tt.r.WriteTo(&tr); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tr.calls, tt.want) {
			t.Errorf("%s: calls\n%q\nwant\n%q", tt.r.Key, tr.calls, tt.want)
		}
	}
}

// TestRecordsWriteTo: each run of records of one database opens it with its counts.
func TestRecordsWriteTo(t *testing.T) {
	rs := Records{
		{DB: 0, Key: []byte("a"), ExpireAtMS: 1},
		{DB: 0, Key: []byte("b")},
		{DB: 3, Key: []byte("c"), Type: Set, Members: []Member{{Name: []byte("m")}}},
	}
	var tr trace
	if err := rs.WriteTo(context.Background(), &tr); err != nil {
		t.Fatal(err)
	}
	want := []string{"db 0 2/1", `begin string a "" n=0 exp=1 min=0`, `begin string b "" n=0 exp=0 min=0`,
		"db 3 1/0", `begin set c "" n=1 exp=0 min=0`, `add m= 0 0 0-0 []`, "end"}
	if !reflect.DeepEqual(tr.calls, want) {
		t.Errorf("calls\n%q\nwant\n%q", tr.calls, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := rs.WriteTo(ctx, Discard{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestWriteToCollector: a Collector keeps what WriteTo writes, streams and field TTLs
// included.
func TestWriteToCollector(t *testing.T) {
	for _, r := range []Record{
		{Key: []byte("h"), Type: Hash, ExpireAtMS: 9, Members: []Member{{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: 5}, {Name: []byte("b"), Value: []byte("2")}}},
		{Key: []byte("x"), Type: Stream, ExpireAtMS: 7,
			Members: []Member{{ID: StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
			Stream: StreamTail{Meta: StreamMeta{LastID: StreamID{Ms: 2}, EntriesAdded: 2},
				Groups: []StreamGroup{{Name: []byte("g"), LastID: StreamID{Ms: 1}, EntriesRead: 1, Pending: []StreamPending{{ID: StreamID{Ms: 1}, DeliveryTimeMS: 3, DeliveryCount: 1}},
					Consumers: []StreamConsumer{{Name: []byte("c"), SeenTimeMS: 3, ActiveTimeMS: 3, Pending: []StreamID{{Ms: 1}}}}}}}},
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
