package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/record"
)

// libraryDump returns a dump that redis-server writes holding the library code and the
// string key.
func libraryDump(t *testing.T, code, key string) string {
	t.Helper()
	return redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		if err := c.FunctionLoad(ctx, code).Err(); err != nil {
			return err
		}
		return c.Set(ctx, key, "v", 0).Err()
	})
}

// TestDuplicateLibraries: function libraries are records like keys for the duplicate rules
// of merge and import (issue 34, item 1). A library of one name and the same code in two
// inputs is written once; with other code, the default is an error naming the library and
// both inputs, with no file written, and --on-duplicate first or last keeps one. Each file
// written loads into redis-server with the FUNCTION LIST and DEBUG DIGEST of a server that
// holds what was kept.
func TestDuplicateLibraries(t *testing.T) {
	ctx := context.Background()
	const (
		codeX = "#!lua name=lib\nredis.register_function('f', function() return 'x' end)"
		codeY = "#!lua name=lib\nredis.register_function('f', function() return 'y' end)"
	)
	a, b, c := libraryDump(t, codeX, "a"), libraryDump(t, codeY, "b"), libraryDump(t, codeX, "c")
	// The oracle: a server holding the library code and the keys.
	want := func(code string, keys ...string) serverView {
		inst := servertest.StartEmpty(t, "--enable-debug-command", "yes")
		cl := inst.Client()
		if err := cl.FunctionLoad(ctx, code).Err(); err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if err := cl.Set(ctx, k, "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
		return viewOf(t, inst)
	}
	dir := t.TempDir()
	check := func(name, out string, want serverView) {
		t.Helper()
		if got := viewOf(t, servertest.Start(t, out, "--enable-debug-command", "yes")); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the server holds %+v, want %+v", name, got, want)
		}
	}

	// The same library in two inputs: written once.
	out := filepath.Join(dir, "same.rdb")
	if _, stderr, err := run(t, ctx, "merge", a, c, "-o", out, "-q", "--target", "redis-7.0"); err != nil {
		t.Fatalf("merge of the same library: %v\n%s", err, stderr)
	}
	check("merge a c", out, want(codeX, "a", "c"))

	// Other code: an error naming the library and both inputs, nothing written.
	out = filepath.Join(dir, "refused.rdb")
	_, _, err := run(t, ctx, "merge", a, b, "-o", out, "-q", "--target", "redis-7.0")
	if !errors.Is(err, record.ErrDuplicateLibrary) || !strings.Contains(err.Error(), `function library "lib"`) ||
		!strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) || !strings.Contains(err.Error(), "--on-duplicate") {
		t.Errorf("merge of two libraries of one name: %v; want an error naming the library, both inputs and --on-duplicate", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused merge left %s", out)
	}
	for on, code := range map[string]string{"first": codeX, "last": codeY} {
		out := filepath.Join(dir, on+".rdb")
		if _, stderr, err := run(t, ctx, "merge", a, b, c, "-o", out, "-q", "--target", "redis-7.0", "--on-duplicate", on); err != nil {
			t.Fatalf("merge --on-duplicate %s: %v\n%s", on, err, stderr)
		}
		if on == "last" {
			code = codeX // c, the last input, holds codeX again
		}
		check("merge --on-duplicate "+on, out, want(code, "a", "b", "c"))
		out = filepath.Join(dir, on+"2.rdb")
		if _, stderr, err := run(t, ctx, "merge", a, b, "-o", out, "-q", "--target", "redis-7.0", "--on-duplicate", on); err != nil {
			t.Fatalf("merge --on-duplicate %s: %v\n%s", on, err, stderr)
		}
		check("merge a b --on-duplicate "+on, out, want(map[string]string{"first": codeX, "last": codeY}[on], "a", "b"))
	}

	// import of two exports concatenated.
	jsonl := exportsConcatenated(t, dir, a, b)
	out = filepath.Join(dir, "import-refused.rdb")
	_, _, err = run(t, ctx, "import", jsonl, "-o", out, "-q", "--target", "redis-7.0")
	if !errors.Is(err, record.ErrDuplicateLibrary) || !strings.Contains(err.Error(), `function library "lib"`) || !strings.Contains(err.Error(), "--on-duplicate") {
		t.Errorf("import of two libraries of one name: %v; want an error naming the library and --on-duplicate", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused import left %s", out)
	}
	for on, code := range map[string]string{"first": codeX, "last": codeY} {
		out := filepath.Join(dir, "import-"+on+".rdb")
		if _, stderr, err := run(t, ctx, "import", jsonl, "-o", out, "-q", "--target", "redis-7.0", "--on-duplicate", on); err != nil {
			t.Fatalf("import --on-duplicate %s: %v\n%s", on, err, stderr)
		}
		check("import --on-duplicate "+on, out, want(code, "a", "b"))
	}
}

// TestMergeBadInputs: an empty name, stdin and a live server are refused as such, in one
// line, and nothing is written; a gzipped dump is read as convert reads it.
func TestMergeBadInputs(t *testing.T) {
	dump := generateWith(t, "--count", "3")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", dump, "", "-o", "out.rdb"}, "an input is an empty file name"},
		{[]string{"merge", dump, "-", "-o", "out.rdb"}, "merge reads files, not stdin"},
		{[]string{"merge", "redis://:secret@127.0.0.1:1", "-o", "out.rdb"}, "merge reads no live server (redis://127.0.0.1:1) yet: write it to a file first"},
	} {
		checkBadInput(t, tt.args, tt.want)
	}
	b, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	gzipped := filepath.Join(t.TempDir(), "d.rdb.gz")
	if err := os.WriteFile(gzipped, gz(t, string(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "m.rdb")
	if _, stderr, err := run(t, context.Background(), "merge", gzipped, "-o", out, "-q"); err != nil {
		t.Fatalf("merge of a gzipped dump: %v\n%s", err, stderr)
	}
	if stdout, _, err := run(t, context.Background(), "diff", dump, out); err != nil {
		t.Errorf("diff of the dump and the merge of it gzipped: %v\n%s", err, stdout)
	}
}

// TestSummaryCountsDuplicateLibraries: the summaries of merge and import count the function
// libraries they left out under --on-duplicate as libraries, apart from the records of keys
// that came again.
func TestSummaryCountsDuplicateLibraries(t *testing.T) {
	ctx := context.Background()
	a := libraryDump(t, "#!lua name=lib\nredis.register_function('f', function() return 'x' end)", "a")
	b := libraryDump(t, "#!lua name=lib\nredis.register_function('f', function() return 'y' end)", "b")
	again := libraryDump(t, "#!lua name=lib\nredis.register_function('f', function() return 'z' end)", "a")
	for _, tc := range []struct {
		name   string
		inputs []string
		keys   string  // the summary's note of keys, "" for none
		dups   float64 // the --json count of keys' records dropped
	}{
		{"a library", []string{a, b}, "", 0},
		{"a library and a key", []string{a, again}, "dropped 1 records of keys that came again", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"merge", "-o", filepath.Join(dir, "out.rdb"), "--target", "redis-7.0", "--on-duplicate", "first"}, tc.inputs...)
			stdout, stderr, err := run(t, ctx, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			text := stdout + stderr
			if !strings.Contains(text, "dropped 1 function library that came again with other code (--on-duplicate)") {
				t.Errorf("summary %q: no count of the library dropped", text)
			}
			if keys := strings.Contains(text, "keys that came again"); keys != (tc.keys != "") || tc.keys != "" && !strings.Contains(text, tc.keys) {
				t.Errorf("summary %q: want the note of keys %q", text, tc.keys)
			}
			args = append([]string{"merge", "--json", "-o", filepath.Join(dir, "json.rdb"), "--target", "redis-7.0", "--on-duplicate", "first"}, tc.inputs...)
			stdout, stderr, err = run(t, ctx, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			var counts map[string]any
			if err := json.Unmarshal([]byte(stdout), &counts); err != nil {
				t.Fatalf("--json %s: %v", stdout, err)
			}
			if dups, _ := counts["duplicates"].(float64); dups != tc.dups || counts["functions_duplicate"] != 1.0 {
				t.Errorf("--json %s: want duplicates %v and functions_duplicate 1", stdout, tc.dups)
			}
		})
	}
	t.Run("import", func(t *testing.T) {
		dir := t.TempDir()
		jsonl := exportsConcatenated(t, dir, a, b)
		stdout, stderr, err := run(t, ctx, "import", jsonl, "-o", filepath.Join(dir, "out.rdb"), "--target", "redis-7.0", "--on-duplicate", "first")
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		if text := stdout + stderr; !strings.Contains(text, "dropped 1 function library that came again with other code (--on-duplicate)") || strings.Contains(text, "duplicate keys") {
			t.Errorf("summary %q: want the library counted as a library, no key", text)
		}
	})
}

// exportsConcatenated writes into dir the JSON Lines exports of the dumps, one after the
// other, and returns the file's path.
func exportsConcatenated(t *testing.T, dir string, dumps ...string) string {
	t.Helper()
	var all []byte
	for _, in := range dumps {
		stdout, stderr, err := run(t, context.Background(), "export", in, "--format", "jsonl", "-o", "-")
		if err != nil {
			t.Fatalf("export %s: %v\n%s", in, err, stderr)
		}
		all = append(all, stdout...)
	}
	path := filepath.Join(dir, "all.jsonl")
	if err := os.WriteFile(path, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
