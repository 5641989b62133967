package input_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"github.com/rdbgen/rdbgen/internal/gz"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// serverDump returns the path of a dump a real redis-server wrote: strings (one expiring),
// a hash, a list, a set and a sorted set in db 0, a string in db 2.
func serverDump(t *testing.T) string {
	t.Helper()
	return redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		p := c.Pipeline()
		p.Set(ctx, "s", "v", 0)
		p.Set(ctx, "t", "w", 3600e9)
		p.HSet(ctx, "h", "f1", "a", "f2", "b")
		p.RPush(ctx, "l", "x", "y", "z")
		p.SAdd(ctx, "set", "m1", "m2")
		p.ZAdd(ctx, "z", redis.Z{Score: 1.5, Member: "a"}, redis.Z{Score: -2, Member: "b"})
		p.Do(ctx, "SELECT", 2)
		p.Set(ctx, "other", "db", 0)
		_, err := p.Exec(ctx)
		return err
	})
}

// records reads every record of src, sorted by db and key.
func records(t *testing.T, src record.Source) []record.Record {
	t.Helper()
	var r record.Recorder
	if err := src.WriteTo(context.Background(), &r); err != nil {
		t.Fatal(err)
	}
	return r.Records
}

// gzipped returns b gzip-compressed.
func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestOpenDump opens a dump a server wrote as it is, gzip-compressed, and on stdin, plain
// and compressed, with and without a format asked for: each is an RDB input whose records
// are the dump's, read twice alike; the compressed and stdin ones through a temporary file
// in TempDir that Close removes, the file itself read in place.
func TestOpenDump(t *testing.T) {
	path := serverDump(t)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(t.TempDir(), "dump.rdb.gz")
	if err := os.WriteFile(gz, gzipped(t, raw), 0o644); err != nil {
		t.Fatal(err)
	}
	want := records(t, mustOpen(t, path, input.Options{}))
	if len(want) != 7 {
		t.Fatalf("the dump holds %d records, want 7", len(want))
	}
	tests := []struct {
		name    string
		arg     string
		stdin   []byte
		format  input.Kind
		spooled bool
	}{
		{"file", path, nil, "", false},
		{"file, rdb asked for", path, nil, input.RDB, false},
		{"gzip", gz, nil, input.Auto, true},
		{"stdin", "-", raw, "", true},
		{"stdin gzip", "-", gzipped(t, raw), input.RDB, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			in, err := input.Open(t.Context(), tt.arg, input.Options{Format: tt.format, Stdin: bytes.NewReader(tt.stdin), TempDir: tmp})
			if err != nil {
				t.Fatal(err)
			}
			if in.Kind != input.RDB || in.Spooled != tt.spooled || in.Size != int64(len(raw)) {
				t.Fatalf("kind %s, spooled %v, size %d: want rdb, %v, %d", in.Kind, in.Spooled, in.Size, tt.spooled, len(raw))
			}
			if tt.spooled != (filepath.Dir(in.Path) == tmp) || !tt.spooled && in.Path != tt.arg {
				t.Fatalf("read from %s", in.Path)
			}
			for range 2 {
				if got := records(t, in); !reflect.DeepEqual(got, want) {
					t.Fatalf("records %v, want %v", got, want)
				}
			}
			if in.Read.Keys != uint64(len(want)) {
				t.Fatalf("Read counts %d keys", in.Read.Keys)
			}
			in.Close()
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Fatalf("left in TempDir: %v", left)
			}
		})
	}
}

// mustOpen opens arg and closes it at the end of the test.
func mustOpen(t *testing.T, arg string, opts input.Options) *input.Input {
	t.Helper()
	in, err := input.Open(t.Context(), arg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// TestOpenRecords opens JSON (an array, JSON Lines) and CSV inputs, told apart by the name
// or the first byte, compressed or not, from a file or stdin: each gives its records.
func TestOpenRecords(t *testing.T) {
	dir := t.TempDir()
	jsonl := `{"db":0,"key":"a","type":"string","value":"1"}` + "\n" + `{"db":1,"key":"h","type":"hash","hash":{"f":"v"}}` + "\n"
	array := "\ufeff  [" + strings.Replace(strings.TrimSpace(jsonl), "\n", ",", 1) + "]"
	csv := "key,value\na,1\nb,2\n"
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name  string
		arg   string
		stdin string
		opts  input.Options
		kind  input.Kind
		keys  string
	}{
		{"jsonl by name", write("a.jsonl", []byte(jsonl)), "", input.Options{}, input.JSON, "a h"},
		{"json array by first byte", write("a.txt", []byte(array)), "", input.Options{}, input.JSON, "a h"},
		{"csv by name", write("a.csv", []byte(csv)), "", input.Options{}, input.CSV, "a b"},
		{"csv by first byte", write("data", []byte(csv)), "", input.Options{}, input.CSV, "a b"},
		{"gzip jsonl", write("x.jsonl.gz", gzipped(t, []byte(jsonl))), "", input.Options{}, input.JSON, "a h"},
		{"csv asked for", write("b.json", []byte(csv)), "", input.Options{Format: input.CSV}, input.CSV, "a b"},
		{"stdin json", "-", jsonl, input.Options{}, input.JSON, "a h"},
		{"stdin csv", "-", csv, input.Options{}, input.CSV, "a b"},
		{"stdin gzip json", "-", string(gzipped(t, []byte(array))), input.Options{}, input.JSON, "a h"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Stdin = strings.NewReader(tt.stdin)
			in := mustOpen(t, tt.arg, tt.opts)
			if in.Kind != tt.kind || in.Import == nil {
				t.Fatalf("kind %s, import %v: want %s", in.Kind, in.Import, tt.kind)
			}
			var keys []string
			for _, r := range records(t, in) {
				keys = append(keys, string(r.Key))
			}
			if got := strings.Join(keys, " "); got != tt.keys {
				t.Fatalf("keys %q, want %q", got, tt.keys)
			}
			if in.Import.Stats.Records != 2 {
				t.Fatalf("stats %+v", in.Import.Stats)
			}
		})
	}
}

// TestStdinReadTwice: keeping the last of duplicate keys reads JSON twice, so stdin is kept
// in TempDir until Close; otherwise stdin is read once, and a second reading is an error.
func TestStdinReadTwice(t *testing.T) {
	jsonl := `{"db":0,"key":"a","type":"string","value":"1"}` + "\n" + `{"db":0,"key":"a","type":"string","value":"2"}` + "\n"
	tmp := t.TempDir()
	in := mustOpen(t, "-", input.Options{Stdin: strings.NewReader(jsonl), TempDir: tmp, OnDuplicate: record.DupLast})
	if !in.Spooled || filepath.Dir(in.Path) != tmp {
		t.Fatalf("stdin kept in %q (spooled %v), want in %s", in.Path, in.Spooled, tmp)
	}
	got := records(t, in)
	if len(got) != 1 || string(got[0].Value) != "2" || in.Import.Stats.Duplicates != 1 {
		t.Fatalf("records %v, stats %+v: want a=2 alone", got, in.Import.Stats)
	}
	in.Close()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("left in TempDir: %v", left)
	}

	once := mustOpen(t, "-", input.Options{Stdin: strings.NewReader(jsonl), TempDir: tmp, OnDuplicate: record.DupFirst})
	if once.Spooled || once.Path != "" {
		t.Fatalf("stdin spooled to %q without a second reading", once.Path)
	}
	if got := records(t, once); len(got) != 1 || string(got[0].Value) != "1" {
		t.Fatalf("records %v, want a=1", got)
	}
	if err := once.WriteTo(t.Context(), record.Discard{}); err == nil || !strings.Contains(err.Error(), "stdin can be read once") {
		t.Fatalf("second reading: %v", err)
	}
}

// TestOpenErrors: what cannot be opened is an error naming it, and an error about a line of
// the input names the input.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"db":0,"key":"a","type":"nope"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "cut.rdb.gz")
	if err := os.WriteFile(truncated, gzipped(t, []byte("REDIS0011"))[:12], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		arg  string
		opts input.Options
		want string
		is   error
	}{
		{"missing", filepath.Join(dir, "nope.json"), input.Options{}, "nope.json: no such file or directory", nil},
		{"format", bad, input.Options{Format: "xml"}, `input: unknown format "xml" (known: auto, json, csv, rdb)`, input.ErrFormat},
		{"missing spec", filepath.Join(dir, "nope.yaml"), input.Options{Format: input.Spec}, "read spec: open " + dir + "/nope.yaml: no such file", nil},
		{"cut gzip", truncated, input.Options{Format: input.RDB}, "read " + truncated + ": ", gz.ErrDamaged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := input.Open(t.Context(), tt.arg, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
	in := mustOpen(t, bad, input.Options{})
	err := in.Err(in.WriteTo(t.Context(), record.Discard{}))
	if err == nil || !strings.HasPrefix(err.Error(), bad+": line 1") {
		t.Fatalf("got %v, want it to name %s and the line", err, bad)
	}
}

// TestOpenGenerated opens a spec file, its parameters changed, and the dataset: the one
// call gives their records and says what they are.
func TestOpenGenerated(t *testing.T) {
	path := filepath.Join("..", "examples", "sessions.yaml")
	in := mustOpen(t, path, input.Options{Format: input.Spec, SpecParams: func(p *spec.Params) { p.CountScale = 0.001; p.Seed = 7 }})
	if in.Kind != input.Spec || in.Spec == nil || in.Spec.Params.Seed != 7 || in.Name != path {
		t.Fatalf("kind %s, spec %v", in.Kind, in.Spec)
	}
	if n := len(records(t, in)); n == 0 || uint64(n) != in.Len() {
		t.Fatalf("%d records, Len %d", n, in.Len())
	}
	if m := in.SpecManifest(); m.File != path || m.YAML == "" || m.YAML != string(in.Spec.Source) || !reflect.DeepEqual(m.Params, in.Spec.Params) {
		t.Fatalf("spec manifest %+v", m)
	}
	d := &dataset.Config{Count: 10, KeyPrefix: "k:"}
	ds := mustOpen(t, "", input.Options{Dataset: d})
	if ds.Kind != input.Dataset || ds.Dataset != d || ds.Len() != 10 || len(records(t, ds)) != 10 {
		t.Fatalf("dataset input %+v", ds)
	}
	if _, err := input.Open(t.Context(), "x.json", input.Options{Dataset: d}); err == nil {
		t.Fatal("a file and the dataset: no error")
	}
}

// FuzzOpenStdin opens any bytes from stdin: Open never fails on them but for gzip's errors,
// and a dump is what starts with "REDIS", once gzip is undone.
func FuzzOpenStdin(f *testing.F) {
	f.Add([]byte("REDIS0011"))
	f.Add([]byte(`{"key":"a"}`))
	f.Add([]byte("a,b\n"))
	f.Add([]byte{0x1f, 0x8b, 8, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := input.Open(context.Background(), "-", input.Options{Stdin: bytes.NewReader(b), TempDir: t.TempDir()})
		if err != nil {
			if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
				t.Fatalf("%q: %v", b, err)
			}
			return
		}
		defer in.Close()
		if gz := len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b; !gz && (in.Kind == input.RDB) != bytes.HasPrefix(b, []byte("REDIS")) {
			t.Fatalf("%q: kind %s", b, in.Kind)
		}
	})
}
