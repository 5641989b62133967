package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/manifest"
)

// runStdin runs rdbgen with stdin.
func runStdin(t *testing.T, stdin []byte, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	app := newApp(&stdout, &stderr)
	app.Reader = bytes.NewReader(stdin)
	err := cliflags.Run(context.Background(), app, append([]string{"rdbgen"}, args...))
	return stdout.String(), stderr.String(), err
}

func gz(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "data.jsonl")
	os.WriteFile(jsonl, []byte(`{"key":"a","value":"1"}`+"\n"+`{"key":"b","type":"set","members":["x"]}`+"\n"+`{"key":"a","value":"2"}`+"\n"), 0o644)
	out := filepath.Join(dir, "out.rdb")

	// Flags after the input; the duplicate names both lines and leaves nothing behind.
	_, _, err := run(t, context.Background(), "import", jsonl, "-o", out)
	if err == nil || err.Error() != jsonl+`: line 3: record: duplicate key "a" in db 0 (first at line 1; see --on-duplicate)` {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a failed import left %s", out)
	}
	stdout, _, err := run(t, context.Background(), "import", jsonl, "-o", out, "--on-duplicate", "last")
	if err != nil || !strings.Contains(stdout, "wrote 2 keys") || !strings.Contains(stdout, "dropped 1 duplicate keys") {
		t.Fatalf("got %v, %q", err, stdout)
	}
	m, err := manifest.Read(manifest.PathFor(out))
	if err != nil || m.Import == nil || m.Import.Records != 3 || m.Import.Duplicates != 1 || m.DBs[0].Keys != 2 || m.Import.Format != "json" {
		t.Fatalf("manifest %+v %+v, %v", m, m.Import, err)
	}

	// Gzip CSV on stdin, detected by content; --on-duplicate last spools stdin.
	csv := "key,value,ttl\nk1,v1,30m\nk2,v2,\nk1,v3,\n"
	stdout, _, err = runStdin(t, gz(t, csv), "import", "-", "-o", filepath.Join(dir, "csv.rdb"), "--on-duplicate", "last", "--json")
	if err != nil || !strings.Contains(stdout, `"keys": 2`) || !strings.Contains(stdout, `"duplicates": 1`) {
		t.Fatalf("got %v, %s", err, stdout)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "rdbgen-import-*")); len(left) != 0 {
		t.Fatalf("spooled stdin left behind: %v", left)
	}

	// --skip-invalid counts and reports.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("key,value,ttl\na,1,soon\nb,2,\n"), 0o644)
	stdout, _, err = run(t, context.Background(), "import", bad, "-o", filepath.Join(dir, "bad.rdb"), "--skip-invalid")
	if err != nil || !strings.Contains(stdout, `wrote 1 keys`) || !strings.Contains(stdout, `skipped 1 invalid records (the first: `+bad+`: line 2: ttl "soon"`) {
		t.Fatalf("got %v, %q", err, stdout)
	}
}

func TestImportBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte("key,value\na,1\n"), 0o644)
	goodJSON := filepath.Join(dir, "good.json")
	os.WriteFile(goodJSON, []byte(`{"key":"a","value":"1"}`), 0o644)

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"import"}, "import takes one input"},
		{[]string{"import", "/nonexistent.json"}, "open /nonexistent.json: no such file or directory"},
		{[]string{"import", good, "--on-duplicate", "both"}, `--on-duplicate "both"`},
		{[]string{"import", good, "--input-format", "xml"}, `--input-format "xml"`},
		{[]string{"import", good, "--csv-type", "zset"}, `--csv-type "zset"`},
		{[]string{"import", good, "--delimiter", "ab"}, `--delimiter "ab"`},
		{[]string{"import", good, "--value-column", "v"}, good + `: line 1: CSV header has no value column "v" (columns: key,value)`},
		{[]string{"import", goodJSON, "--db", "3"}, "--db applies to CSV input only, and " + goodJSON + " is JSON"},
		{[]string{"import", goodJSON, "--csv-type", "hash"}, "--csv-type applies to CSV input only"},
		{[]string{"import", good, "-o", ""}, `--output "": an empty value is not allowed`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Chdir(t.TempDir())
			_, _, err := run(t, context.Background(), tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line containing %q", err, tt.want)
			}
			if got := dirEntries(t, "."); len(got) != 0 {
				t.Fatalf("a failed run left files: %v", got)
			}
		})
	}
}

// TestImportTSV reads a .tsv file with tabs unless --delimiter says otherwise.
func TestImportTSV(t *testing.T) {
	dir := t.TempDir()
	tsv := filepath.Join(dir, "data.tsv")
	os.WriteFile(tsv, []byte("key\tvalue\nk1\ta,b\nk2\tc\n"), 0o644)
	stdout, _, err := run(t, context.Background(), "import", tsv, "-o", filepath.Join(dir, "tsv.rdb"))
	if err != nil || !strings.Contains(stdout, "wrote 2 keys") {
		t.Fatalf("got %v, %q", err, stdout)
	}
	semi := filepath.Join(dir, "semi.tsv")
	os.WriteFile(semi, []byte("key;value\nk1;v\n"), 0o644)
	stdout, _, err = run(t, context.Background(), "import", semi, "-o", filepath.Join(dir, "semi.rdb"), "--delimiter", ";")
	if err != nil || !strings.Contains(stdout, "wrote 1 keys") {
		t.Fatalf("--delimiter with .tsv: got %v, %q", err, stdout)
	}
}
