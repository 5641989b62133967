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
