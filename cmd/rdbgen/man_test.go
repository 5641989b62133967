package main

import (
	"flag"
	"os"
	"testing"
)

var updateMan = flag.Bool("update-man", false, "rewrite "+manPage+" from the commands' flags (make man)")

// manPage is the man page, generated from the flags of every command.
const manPage = "../../docs/rdbgen.1"

// TestManPage fails when docs/rdbgen.1 is not what the commands' flags make: `make man`
// rewrites it.
func TestManPage(t *testing.T) {
	got, err := newApp(nil, nil).ToManWithSection(1)
	if err != nil {
		t.Fatal(err)
	}
	if *updateMan {
		if err := os.WriteFile(manPage, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(manPage)
	if err != nil {
		t.Fatalf("%v (make man writes it)", err)
	}
	if got != string(want) {
		t.Fatalf("%s is out of date with the commands' flags: run make man", manPage)
	}
}
