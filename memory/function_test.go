package memory_test

import (
	"testing"

	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
)

// TestEstimatorTakesFunctions: a dump's function libraries do not stop an estimate, and add
// nothing to the keyspace's memory.
func TestEstimatorTakesFunctions(t *testing.T) {
	e, err := memory.New(memory.Options{Target: "redis-7.0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.WriteFunction([]byte("#!lua name=mylib\nreturn 1")); err != nil {
		t.Fatal(err)
	}
	if err := e.BeginDB(0, record.Counts{}); err != nil {
		t.Fatal(err)
	}
	if err := e.Begin(&record.Header{Key: []byte("k"), Type: record.String, Value: []byte("v")}); err != nil {
		t.Fatal(err)
	}
	if r, err := e.Result(); err != nil || r.Keys != 1 {
		t.Fatalf("estimate %+v, %v; want 1 key", r, err)
	}
}
