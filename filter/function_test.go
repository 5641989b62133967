package filter_test

import (
	"testing"

	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/record"
)

// TestFilterKeepsFunctions: function libraries are not keys: every filter, even one that
// drops every key, passes them on.
func TestFilterKeepsFunctions(t *testing.T) {
	code := []byte("#!lua name=mylib\nreturn 1")
	for _, o := range []filter.Options{
		{DBs: []int{5}},
		{Match: "nothing:*"},
		{Types: []record.Type{record.Stream}},
		{Sample: 1e-9},
		{DropExpired: true},
	} {
		var c record.Collector
		f, err := filter.New(&c, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.BeginDB(0, record.Counts{}); err != nil {
			t.Fatal(err)
		}
		if err := f.WriteFunction(code); err != nil {
			t.Fatal(err)
		}
		if err := f.Begin(&record.Header{Key: []byte("k"), Type: record.String, Value: []byte("v"), ExpireAtMS: 1}); err != nil {
			t.Fatal(err)
		}
		if len(c.Functions) != 1 || string(c.Functions[0]) != string(code) || f.Stats().Dropped != 1 {
			t.Fatalf("options %+v: passed %q, dropped %d keys; want the library and the key dropped", o, c.Functions, f.Stats().Dropped)
		}
	}
}
