package main

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/rdbgen/rdbgen/internal/version"
)

// TestVersionCommand: rdbgen --version and rdbgen version print one line with the release and
// the build; --json the same facts as fields.
func TestVersionCommand(t *testing.T) {
	want := "rdbgen version " + version.Get().String() + "\n"
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, stderr, err := run(t, context.Background(), args...)
		if err != nil || out != want || stderr != "" {
			t.Errorf("%q: got %q %q %v, want %q", args, out, stderr, err, want)
		}
	}
	out, _, err := run(t, context.Background(), "version", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got version.Info
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got != version.Get() || got.Release != version.Unreleased || got.Go != runtime.Version() || got.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("version --json: %+v", got)
	}
	if _, _, err := run(t, context.Background(), "version", "extra"); err == nil {
		t.Error("version extra: no error")
	}
}
