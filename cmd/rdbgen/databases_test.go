package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHighDBWarnsAndVerifies: a file of db 20 gets a warning naming the databases setting
// it needs, and verify's restart gives the server that many databases, so the file passes.
func TestHighDBWarnsAndVerifies(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.rdb")
	_, stderr, err := run(t, t.Context(), "--count", "5", "--db", "20", "-o", out, "-q")
	if err != nil {
		t.Fatal(err)
	}
	want := "warning: " + out + " holds db 20: a server loads it only when configured with databases 21 or more (the default is 16)\n"
	if stderr != want {
		t.Fatalf("stderr %q, want %q", stderr, want)
	}
	stdout, _, err := run(t, t.Context(), append([]string{"verify", out}, process(t)...)...)
	if err != nil || !strings.Contains(stdout, "PASS") {
		t.Fatalf("verify: %v\n%s", err, stdout)
	}
	_, stderr, err = run(t, t.Context(), "--count", "5", "--db", "15", "-o", filepath.Join(t.TempDir(), "e.rdb"), "-q")
	if err != nil || stderr != "" {
		t.Fatalf("db 15: %v, %q", err, stderr)
	}
}
