package memory_test

import (
	"testing"

	"github.com/rdbgen/rdbgen/encoder"
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
	if err := record.WriteFunction(e, []byte("#!lua name=mylib\nreturn 1")); err != nil {
		t.Fatal(err)
	}
	if err := e.BeginDB(0, encoder.DBInfo{}); err != nil {
		t.Fatal(err)
	}
	if err := e.WriteString([]byte("k"), []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	if r, err := e.Result(); err != nil || r.Keys != 1 {
		t.Fatalf("estimate %+v, %v; want 1 key", r, err)
	}
}
