package input_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// TestOpenRequest opens the spec file, the input file or the dataset a request names, and
// refuses the flags of the others, naming them.
func TestOpenRequest(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(jsonl, []byte(`{"db":0,"key":"a","type":"string","value":"1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	specFile := filepath.Join("..", "examples", "sessions.yaml")
	datasetFlags, fileFlags := []string{"count", "type", "db"}, []string{"input-format", "csv-type"}
	tests := []struct {
		name  string
		args  []string
		spec  string
		given []string
		kind  input.Kind // of the input opened, or "" for the error
		err   string
	}{
		{"dataset", nil, "", []string{"count", "type"}, input.Dataset, ""},
		{"spec", nil, specFile, []string{"count-scale", "seed"}, input.Spec, ""},
		{"file", []string{jsonl}, "", []string{"input-format"}, input.JSON, ""},
		{"two files", []string{jsonl, jsonl}, "", nil, "", "one input file at most, got 2 arguments"},
		{"spec and file", []string{jsonl}, specFile, nil, "", `--spec and the input "` + jsonl + `" both name the records: give one`},
		{"file flag alone", nil, "", []string{"count", "csv-type"}, "", "--csv-type goes with an input file"},
		{"count-scale alone", nil, "", []string{"count", "count-scale"}, "", "--count-scale goes with --spec"},
		{"dataset flag with spec", nil, specFile, []string{"type"}, "", "--type does not go with --spec: the spec file describes the keys"},
		{"dataset flag with file", []string{jsonl}, "", []string{"db"}, "", "--db does not go with an input file: the file holds the records"},
		{"seed with file", []string{jsonl}, "", []string{"seed"}, "", "--seed does not go with an input file"},
		{"nothing", nil, "", nil, "", "--count is required (the number of keys), or --spec FILE, or an input file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := input.OpenRequest(t.Context(), input.Request{Args: tt.args, Spec: tt.spec,
				Dataset:      func() (*dataset.Config, error) { return &dataset.Config{Count: 3, KeyPrefix: "k:"}, nil },
				Given:        func(name string) bool { return slices.Contains(tt.given, name) },
				DatasetFlags: datasetFlags, FileFlags: fileFlags,
				Options: input.Options{SpecParams: func(p *spec.Params) { p.CountScale = 0.001 }}})
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("got %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if in.Kind != tt.kind || len(records(t, in)) == 0 {
				t.Fatalf("kind %s, want %s, with records", in.Kind, tt.kind)
			}
		})
	}
}

// TestOpenRefuses: the CSV options are refused by JSON and dumps, naming the flag given and
// the input, and --skip-invalid by dumps, before anything is read; options no CSV takes are
// refused whatever the input.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	jsonl, csv := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "a.csv")
	if err := os.WriteFile(jsonl, []byte(`{"db":0,"key":"a","type":"string","value":"1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csv, []byte("key,value\na,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dump := serverDump(t)
	tests := []struct {
		name string
		arg  string
		opts input.Options
		err  string
	}{
		{"csv", csv, input.Options{CSVOption: "db", SkipInvalid: true}, ""},
		{"json skips", jsonl, input.Options{SkipInvalid: true}, ""},
		{"json", jsonl, input.Options{CSVOption: "db"}, "--db applies to CSV input only, and " + jsonl + " is JSON, whose records give their own db and type"},
		{"dump", dump, input.Options{CSVOption: "key-column"}, "--key-column applies to CSV input only, and " + dump + " is a dump"},
		{"dump skips", dump, input.Options{SkipInvalid: true}, "--skip-invalid applies to JSON and CSV input only, and " + dump + " is a dump"},
		{"csv type", jsonl, input.Options{CSV: importer.CSVOptions{Type: record.List}}, `--csv-type "list" (known: string, hash)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := input.Open(t.Context(), tt.arg, tt.opts)
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				in.Close()
				return
			}
			if err == nil || err.Error() != tt.err {
				t.Fatalf("got %v, want %q", err, tt.err)
			}
		})
	}
	// Standard input refused is not spooled: nothing is left in the temporary directory.
	tmp := t.TempDir()
	_, err := input.Open(t.Context(), "-", input.Options{Stdin: strings.NewReader("REDIS0011"), TempDir: tmp, SkipInvalid: true})
	if left, _ := os.ReadDir(tmp); err == nil || len(left) != 0 {
		t.Fatalf("stdin dump with SkipInvalid: %v, %d files left", err, len(left))
	}
}
