package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/export"
	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestExportImport: `export` then `import`, in both JSON formats, of dumps a real
// redis-server wrote (testdata/dumps, and the same made now by make.sh), gives a server
// what a server started on the dump holds: DEBUG DIGEST, FUNCTION LIST WITHCODE, XINFO
// STREAM FULL, XPENDING, every key's PEXPIRETIME and DEBUG DIGEST-VALUE (see diffState).
func TestExportImport(t *testing.T) {
	redistest.RedisServer(t)
	dumps := map[string]string{}
	committed, err := filepath.Glob(filepath.Join(conformanceDumps, "*.rdb"))
	if err != nil || len(committed) == 0 {
		t.Fatalf("no dumps in %s: %v", conformanceDumps, err)
	}
	fresh := t.TempDir()
	made := time.Now()
	if out, err := exec.Command("bash", filepath.Join(conformanceDumps, "make.sh"), fresh).CombinedOutput(); err != nil {
		t.Fatalf("make.sh: %v\n%s", err, out)
	}
	for _, p := range committed {
		dumps["committed "+filepath.Base(p)] = p
		dumps["fresh "+filepath.Base(p)] = filepath.Join(fresh, filepath.Base(p))
	}
	// The dumps' expired:* keys expire 2 s after they were set: wait until they have.
	time.Sleep(time.Until(made.Add(2100 * time.Millisecond)))
	for _, name := range unionKeys(dumps, nil) {
		dump := dumps[name]
		t.Run(name, func(t *testing.T) {
			want := readState(t, servertest.Start(t, dump, "--enable-debug-command", "yes").Addr)
			checkReference(t, dump, want)
			for _, format := range []string{"json", "jsonl"} {
				t.Run(format, func(t *testing.T) {
					dir := t.TempDir()
					out := filepath.Join(dir, "export."+format)
					if _, stderr, err := run(t, t.Context(), "export", dump, "-o", out, "--format", format); err != nil {
						t.Fatalf("export: %v\n%s", err, stderr)
					}
					back := filepath.Join(dir, "back.rdb")
					if _, stderr, err := run(t, t.Context(), "import", out, "-o", back, "--target", "redis-7.0", "--quiet"); err != nil {
						t.Fatalf("import: %v\n%s", err, stderr)
					}
					got := readState(t, servertest.Start(t, back, "--enable-debug-command", "yes").Addr)
					for _, d := range diffState(want, got, stateOptions{}) {
						t.Error(d)
					}
				})
			}
		})
	}
}

// TestExportOutput checks the choice of format, the summary, stdout, and that a refused or
// failed export leaves no file behind.
func TestExportOutput(t *testing.T) {
	dump := filepath.Join(conformanceDumps, "types.rdb")
	dir := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		out    string // the output file, "" for stdout
		first  string // how the output starts
		errMsg string // a part of the error; "" for none
	}{
		{"json by default", []string{"-o", filepath.Join(dir, "a.out")}, "a.out", "[\n{", ""},
		{"jsonl by extension", []string{"-o", filepath.Join(dir, "b.ndjson")}, "b.ndjson", `{"type":"function"`, ""},
		{"csv by extension", []string{"-o", filepath.Join(dir, "c.csv")}, "c.csv", "db,key,type,encoding,bytes,members,expiry,memory\n", ""},
		{"gzip", []string{"-o", filepath.Join(dir, "g.jsonl.gz")}, "g.jsonl.gz", `{"type":"function"`, ""},
		{"stdout", []string{"--format", "jsonl", "--type", "hash", "--db", "1"}, "", `{"type":"function"`, ""},
		{"unknown format", []string{"-o", filepath.Join(dir, "d.json"), "--format", "xml"}, "d.json", "", `--format "xml"`},
		{"bad filter", []string{"-o", filepath.Join(dir, "e.json"), "--type", "bitmap"}, "e.json", "", `"bitmap"`},
		{"bad sample", []string{"-o", filepath.Join(dir, "e.json"), "--sample", "2"}, "e.json", "", "--sample 2"},
		{"not a dump", []string{"-o", filepath.Join(dir, "f.json")}, "f.json", "", "not an RDB file"},
		{"exists", []string{"-o", filepath.Join(dir, "a.out")}, "a.out", "[\n{", "exists"},
	}
	notDump := filepath.Join(dir, "not.rdb")
	if err := os.WriteFile(notDump, []byte("hello, this is text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := dump
			if tt.name == "not a dump" {
				in = notDump
			}
			stdout, stderr, err := run(t, t.Context(), append([]string{"export", in}, tt.args...)...)
			if tt.errMsg != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errMsg) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line with %q", err, tt.errMsg)
				}
				if tt.name != "exists" {
					if _, err := os.Stat(filepath.Join(dir, tt.out)); !os.IsNotExist(err) {
						t.Errorf("%s left behind: %v", tt.out, err)
					}
					if left, _ := filepath.Glob(filepath.Join(dir, "*"+tt.out+"*")); len(left) > 0 {
						t.Errorf("left behind: %v", left)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			data := []byte(stdout)
			summary := stdout
			if tt.out != "" {
				if data, err = os.ReadFile(filepath.Join(dir, tt.out)); err != nil {
					t.Fatal(err)
				}
			} else {
				summary = stderr
			}
			if strings.HasSuffix(tt.out, ".gz") {
				zr, err := gzip.NewReader(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if data, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.HasPrefix(data, []byte(tt.first)) {
				t.Errorf("output starts %.80q, want %q", data, tt.first)
			}
			if !strings.HasPrefix(summary, "exported ") {
				t.Errorf("summary %q", summary)
			}
		})
	}
	// --type hash --db 1: one key, and the libraries.
	stdout, stderr, err := run(t, context.Background(), "export", dump, "--format", "jsonl", "--type", "hash", "--db", "1", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stdout, "\n"); n != 3 || !strings.Contains(stdout, `"key":"hash:ttl"`) {
		t.Errorf("%d lines:\n%s", n, stdout)
	}
	var s export.Summary
	if err := json.Unmarshal([]byte(stderr), &s); err != nil || s.Keys != 1 || s.Functions != 2 || s.Dropped == 0 || s.Bytes != int64(len(stdout)) {
		t.Errorf("summary %+v (%v) from %s", s, err, stderr)
	}
}

// TestExportInputs: a dump on stdin, and gzipped, exports as the file itself does.
func TestExportInputs(t *testing.T) {
	dump := filepath.Join(conformanceDumps, "encodings.rdb")
	raw, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write(raw)
	zw.Close()
	gz := filepath.Join(t.TempDir(), "dump.rdb.gz")
	if err := os.WriteFile(gz, zipped.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	export := func(input string, stdin []byte) string {
		var stdout, stderr bytes.Buffer
		app := newApp(&stdout, &stderr)
		app.Reader = bytes.NewReader(stdin)
		if err := cliflags.Run(t.Context(), app, []string{"rdbgen", "export", input, "--format", "jsonl", "--quiet"}); err != nil {
			t.Fatalf("export %s: %v\n%s", input, err, stderr.String())
		}
		return stdout.String()
	}
	want := export(dump, nil)
	if strings.Count(want, "\n") < 20 {
		t.Fatalf("too little exported:\n%s", want)
	}
	for name, got := range map[string]string{"stdin": export("-", raw), "gzip": export(gz, nil), "gzip on stdin": export("-", zipped.Bytes())} {
		if got != want {
			t.Errorf("%s: the export differs from the file's", name)
		}
	}
}
