package export

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
)

func TestFormatFor(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		want       Format
	}{
		{"", "-", FormatJSON},
		{"", "out.json", FormatJSON},
		{"", "out.JSONL", FormatJSONL},
		{"", "out.ndjson.gz", FormatJSONL},
		{"", "out.csv.gz", FormatCSV},
		{"", "out.gz", FormatJSON},
		{"csv", "out.jsonl", FormatCSV},
		{"jsonl", "-", FormatJSONL},
	} {
		if got, err := FormatFor(tc.name, tc.path); got != tc.want || err != nil {
			t.Errorf("FormatFor(%q, %q) = %q, %v; want %q", tc.name, tc.path, got, err, tc.want)
		}
	}
	if _, err := FormatFor("xml", "out.json"); !errors.Is(err, ErrFormat) {
		t.Errorf("FormatFor(xml): %v, want ErrFormat", err)
	}
}

// TestCreate: a file appears only on Commit, compressed when its name ends in .gz; an
// aborted one leaves nothing; an existing one is kept without overwrite; "-" is stdout.
func TestCreate(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.json", "a.json.gz"} {
		path := filepath.Join(dir, name)
		f, err := Create(path, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, "[]")
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists before Commit: %v", name, err)
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		var r io.Reader
		if r, err = os.Open(path); err == nil && name == "a.json.gz" {
			r, err = gzip.NewReader(r)
		}
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := io.ReadAll(r); string(b) != "[]" {
			t.Errorf("%s holds %q", name, b)
		}
		if _, err := Create(path, false, nil); !errors.Is(err, atomicfile.ErrExists) {
			t.Errorf("%s again without overwrite: %v", name, err)
		}
	}
	path := filepath.Join(dir, "b.json")
	f, err := Create(path, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "[")
	f.Abort()
	if left, _ := filepath.Glob(filepath.Join(dir, "*b.json*")); len(left) != 0 {
		t.Errorf("left after Abort: %v", left)
	}
	var stdout bytes.Buffer
	if f, err = Create("-", false, &stdout); err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "[]")
	if err := f.Commit(); err != nil || stdout.String() != "[]" {
		t.Errorf("stdout: %q, %v", stdout.String(), err)
	}
}
