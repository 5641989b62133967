package memory_test

import (
	"context"
	"testing"

	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
)

// TestKeyBytes: the keys' estimates add up to the Result, but for the dicts' tables.
func TestKeyBytes(t *testing.T) {
	e, err := memory.New(memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	n := 0
	each := record.Tee(e, keyDone{func() { sum += e.KeyBytes(); n++ }})
	recs := record.Records{
		{Key: []byte("s"), Type: record.String, Value: []byte("a value of some length, longer than 44 bytes, raw"), ExpireAtMS: 1},
		{Key: []byte("i"), Type: record.String, Value: []byte("12345")},
		{DB: 1, Key: []byte("h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}},
		{DB: 1, Key: []byte("x"), Type: record.Stream, Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}}},
	}
	if err := recs.WriteTo(context.Background(), each); err != nil {
		t.Fatal(err)
	}
	r, err := e.Result()
	if err != nil {
		t.Fatal(err)
	}
	if n != len(recs) || sum <= 0 || sum != r.Bytes-r.Tables {
		t.Errorf("%d keys' estimates add up to %d, want %d (%d, tables %d)", n, sum, r.Bytes-r.Tables, r.Bytes, r.Tables)
	}
}

// keyDone calls done once each key is whole.
type keyDone struct{ done func() }

func (keyDone) BeginDB(int, record.Counts) error { return nil }

func (k keyDone) Begin(h *record.Header) error {
	if h.Type == record.String {
		k.done()
	}
	return nil
}

func (keyDone) Add(*record.Member) error { return nil }

func (k keyDone) End(*record.StreamTail) error { k.done(); return nil }

func (keyDone) WriteFunction([]byte) error { return nil }

func (keyDone) WriteModuleAux(*record.ModuleAux) error { return nil }
