package record

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"
)

// sample is a database of each kind of key, and a library.
var sample = Records{
	{Key: []byte("s"), Value: []byte("v"), ExpireAtMS: 5},
	{Key: []byte("h"), Type: Hash, Members: []Member{{Name: []byte("f"), Value: []byte("1")}, {Name: []byte("g"), Value: []byte("2")}}},
	{Key: []byte("drop"), Type: List, Members: []Member{{Name: []byte("e")}}},
	{Key: []byte("x"), Type: Stream, Members: []Member{{ID: StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}}},
	{Key: []byte("drop"), Value: []byte("w")},
	{Key: []byte("m"), Type: Module, ModuleID: mtID, Value: []byte("\x02\x00\x00")},
	{Key: []byte("drop"), Type: Module, ModuleID: mtID, Value: []byte("\x00")},
}

// mtID is the module id of the test module's type, "rdbgen-mt" at encoding version 1.
var mtID, _ = ModuleID("rdbgen-mt", 1)

// TestGate drops whole keys, strings and collections, with their members and End, and
// passes the rest and the databases on.
func TestGate(t *testing.T) {
	var got trace
	g := &Gate{Pass: Pass{Next: &got}, Keep: func(h *Header) (bool, error) { return !bytes.Equal(h.Key, []byte("drop")), nil }}
	if err := sample.WriteTo(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	var want trace
	if err := append(Records{}, sample[0], sample[1], sample[3], sample[5]).WriteTo(context.Background(), &want); err != nil {
		t.Fatal(err)
	}
	want.calls[0] = "db 0 7/1" // the counts are the source's
	if !reflect.DeepEqual(got.calls, want.calls) || g.Dropped != 3 {
		t.Errorf("dropped %d, calls\n%q\nwant\n%q", g.Dropped, got.calls, want.calls)
	}
	boom := errors.New("boom")
	g = &Gate{Pass: Pass{Next: Discard{}}, Keep: func(*Header) (bool, error) { return false, boom }}
	if err := sample.WriteTo(context.Background(), g); !errors.Is(err, boom) {
		t.Errorf("Keep's error: %v", err)
	}
}

// TestTeeCount: a Tee writes every call into each sink; Counts count what passes.
func TestTeeCount(t *testing.T) {
	var a, b trace
	c := &Count{Next: &b}
	s := Tee(&a, c)
	if err := sample.WriteTo(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteFunction([]byte("#!lua name=l\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteModuleAux(&ModuleAux{ModuleID: mtID, When: ModuleAuxAfter, Value: []byte{0}}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.calls, b.calls) || len(a.calls) != 17 {
		t.Errorf("the sinks got\n%q\n%q", a.calls, b.calls)
	}
	if want := (Counts{Keys: 7, Expires: 1}); c.Counts != want || c.Members != 4 || c.Functions != 1 || c.ModuleAux != 1 {
		t.Errorf("counted %+v, %d members, %d libraries, %d module AUX", c.Counts, c.Members, c.Functions, c.ModuleAux)
	}
	var alone Count // no Next: discards
	if err := sample.WriteTo(context.Background(), &alone); err != nil || alone.Counts.Keys != 7 {
		t.Errorf("a Count without Next: %v %+v", err, alone.Counts)
	}
	boom := errors.New("boom")
	stop := Tee(failing{boom}, &a)
	n := len(a.calls)
	if err := sample.WriteTo(context.Background(), stop); !errors.Is(err, boom) || len(a.calls) != n {
		t.Errorf("a Tee went on after an error: %v", err)
	}
}

type failing struct{ err error }

func (f failing) BeginDB(int, Counts) error       { return f.err }
func (f failing) Begin(*Header) error             { return f.err }
func (f failing) Add(*Member) error               { return f.err }
func (f failing) End(*StreamTail) error           { return f.err }
func (f failing) WriteFunction(code []byte) error { return f.err }
func (f failing) WriteModuleAux(*ModuleAux) error { return f.err }

// upper is a wrapper that embeds Pass and changes keys alone.
type upper struct{ Pass }

func (u upper) Begin(h *Header) error {
	c := *h
	c.Key = bytes.ToUpper(h.Key)
	return u.Next.Begin(&c)
}

// TestPass: a wrapper embedding Pass overrides one call; the rest pass unchanged.
func TestPass(t *testing.T) {
	var r Recorder
	if err := sample[:2].WriteTo(context.Background(), upper{Pass{Next: &r}}); err != nil {
		t.Fatal(err)
	}
	if err := (upper{Pass{Next: &r}}).WriteFunction([]byte("x")); err != nil {
		t.Fatal(err)
	}
	aux := ModuleAux{ModuleID: mtID, When: ModuleAuxBefore, Value: []byte{5, 0x81, 'v', 0}}
	if err := (upper{Pass{Next: &r}}).WriteModuleAux(&aux); err != nil {
		t.Fatal(err)
	}
	aux.Value[2] = 'w' // the Collector copied it
	if len(r.Records) != 2 || string(r.Records[0].Key) != "S" || string(r.Records[1].Key) != "H" ||
		!reflect.DeepEqual(r.Records[1].Members, sample[1].Members) || len(r.Functions) != 1 ||
		len(r.ModuleAux) != 1 || string(r.ModuleAux[0].Value) != "\x05\x81v\x00" || r.ModuleAux[0].When != ModuleAuxBefore {
		t.Errorf("recorded %+v", r.Records)
	}
}

// TestCountDBs checks Count's per-database counts: a database that gets no key has no entry
// (nil map when none does), one given in two sections adds up, and DBs may be asked midway.
func TestCountDBs(t *testing.T) {
	s := func(db int, key string, exp int64) Record {
		return Record{DB: db, Key: []byte(key), Value: []byte("v"), ExpireAtMS: exp}
	}
	tests := []struct {
		name string
		dbs  []Records // each written after a BeginDB of its first record's db; empty: BeginDB(0) alone
		want map[int]Counts
	}{
		{"nothing", nil, nil},
		{"an empty database", []Records{{}}, nil},
		{"one database", []Records{{s(0, "a", 5), s(0, "b", 0)}}, map[int]Counts{0: {Keys: 2, Expires: 1}}},
		{"an empty database between two", []Records{{s(1, "a", 0)}, {}, {s(3, "b", 9)}}, map[int]Counts{1: {Keys: 1}, 3: {Keys: 1, Expires: 1}}},
		{"db 0 in two sections", []Records{{s(0, "a", 1)}, {s(2, "b", 0)}, {s(0, "c", 1), s(0, "d", 0)}},
			map[int]Counts{0: {Keys: 3, Expires: 2}, 2: {Keys: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Count{}
			for _, part := range tt.dbs {
				db := 0
				if len(part) > 0 {
					db = part[0].DB
				}
				if err := c.BeginDB(db, Counts{}); err != nil {
					t.Fatal(err)
				}
				if c.DBs(); len(part) > 0 { // asked midway: the open database is counted once
					c.DBs()
				}
				for _, r := range part {
					if err := r.WriteTo(c); err != nil {
						t.Fatal(err)
					}
				}
			}
			if got := c.DBs(); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("DBs() = %v, want %v", got, tt.want)
			}
		})
	}
}
