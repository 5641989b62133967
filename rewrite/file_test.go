package rewrite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// TestReadFileAndSource: ReadFile parses the rules file it names, Source rewrites a source's
// records by them, as New does; a file that cannot be read is an error saying so.
func TestReadFileAndSource(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.yaml")
	if err := os.WriteFile(path, []byte("rules:\n  - key: 'user:*'\n    value: name\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rules.File != path {
		t.Errorf("File %q, want %q", rules.File, path)
	}
	recs := record.Records{str("user:1", "alice", 0), str("other", "bob", 0)}
	var out recorder
	if err := Source(recs, rules).WriteTo(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want, err := through(t, "rules:\n  - key: 'user:*'\n    value: name\n", recs...)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Records) != 2 || string(out.Records[0].Value) == "alice" || string(out.Records[0].Value) != string(want[0].Value) || string(out.Records[1].Value) != "bob" {
		t.Errorf("rewritten %+v, want %+v", out.Records, want)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.HasPrefix(err.Error(), "read rewrite rules: open ") {
		t.Errorf("missing file: %v", err)
	}
}
