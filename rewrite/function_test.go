package rewrite

import (
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// TestRewriteKeepsFunctions: a function library passes a rewrite unchanged, whatever the
// rules: they rewrite keys and values.
func TestRewriteKeepsFunctions(t *testing.T) {
	rules, err := Parse("rules.yaml", []byte("rules:\n  - key: \"*\"\n    value: hex\n"))
	if err != nil {
		t.Fatal(err)
	}
	var c record.Collector
	s, err := New(&c, rules)
	if err != nil {
		t.Fatal(err)
	}
	code := []byte("#!lua name=mylib\nreturn 1")
	if err := s.WriteFunction(code); err != nil {
		t.Fatal(err)
	}
	if len(c.Functions) != 1 || string(c.Functions[0]) != string(code) {
		t.Fatalf("passed %q, want the library unchanged", c.Functions)
	}
}
