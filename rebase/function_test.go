package rebase_test

import (
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

// TestRebaseKeepsFunctions: a function library, which has no expiry, passes a rebase.
func TestRebaseKeepsFunctions(t *testing.T) {
	var c record.Collector
	s, err := rebase.New(&c, rebase.NewShift(time.Unix(0, 0), time.Unix(3600, 0)))
	if err != nil {
		t.Fatal(err)
	}
	code := []byte("#!lua name=mylib\nreturn 1")
	if err := record.WriteFunction(s, code); err != nil {
		t.Fatal(err)
	}
	if len(c.Functions) != 1 || string(c.Functions[0]) != string(code) {
		t.Fatalf("passed %q, want the library", c.Functions)
	}
}

// TestCreatedWithFunctions: the creation time of a real dump that holds function libraries
// is read (they come after the AUX fields).
func TestCreatedWithFunctions(t *testing.T) {
	created, err := rebase.Created(t.Context(), redistest.WriteFunctionDump(t, true))
	if err != nil || time.Since(created) > time.Hour {
		t.Fatalf("Created: %v, %v", created, err)
	}
}
