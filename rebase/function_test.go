package rebase_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

// librarySource is a Source of one function library and one string that expires.
type librarySource []byte

func (l librarySource) WriteTo(_ context.Context, sink record.Sink) error {
	return errors.Join(sink.WriteFunction(l), sink.BeginDB(0, record.Counts{}),
		sink.Begin(&record.Header{Key: []byte("k"), Type: record.String, Value: []byte("v"), ExpireAtMS: 1000}))
}

// TestRebaseKeepsFunctions: a function library, which has no expiry, passes a rebase that
// moves the keys' expiries.
func TestRebaseKeepsFunctions(t *testing.T) {
	code := librarySource("#!lua name=mylib\nreturn 1")
	var c record.Collector
	src := rebase.Through(code, rebase.NewShift(time.Unix(0, 0), time.Unix(3600, 0)))
	if err := src.WriteTo(t.Context(), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Functions) != 1 || string(c.Functions[0]) != string(code) || c.Rec.ExpireAtMS != 3_601_000 {
		t.Fatalf("passed %q and an expiry of %d; want the library and 3601000", c.Functions, c.Rec.ExpireAtMS)
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
