package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

// recordSource is a record.Source of one record, in db 0.
type recordSource struct{ r *record.Record }

func (s recordSource) WriteTo(_ context.Context, sink record.Sink) error {
	if err := sink.BeginDB(0, record.Counts{Keys: 1}); err != nil {
		return err
	}
	return s.r.WriteTo(sink)
}

func TestRewriteFlags(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "rules.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(good, []byte("seed: 5\nrules:\n  - key: 'a:*'\n    value: {uuid: {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("rules:\n  - key: a\n    value: {fake: nope}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args     []string
		seed     uint64 // 0: no rules
		wrapped  bool
		errStart string
	}{
		{nil, 0, false, ""},
		{[]string{"--rewrite", good}, 5, true, ""},
		{[]string{"--rewrite", good, "--rewrite-seed", "99"}, 99, true, ""},
		{[]string{"--rewrite-seed", "99"}, 0, false, "--rewrite-seed goes with --rewrite"},
		{[]string{"--rewrite", bad}, 0, false, bad + `:3:19: rules[0].value.fake: unknown fake data "nope"`},
		{[]string{"--rewrite", filepath.Join(dir, "missing.yaml")}, 0, false, "read rewrite rules: open "},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			in := &record.Record{Key: []byte("a:1"), Value: []byte("secret")}
			app := &cli.App{Flags: rewriteFlags(), Action: func(c *cli.Context) error {
				src, desc, err := rewriteSource(c, recordSource{in})
				if err != nil {
					return err
				}
				var out record.Collector
				if err := src.WriteTo(c.Context, &out); err != nil {
					return err
				}
				if rewritten := string(out.Rec.Value) != "secret"; rewritten != tt.wrapped {
					t.Errorf("value %q: rewritten %v, want %v", out.Rec.Value, rewritten, tt.wrapped)
				}
				if (desc == nil) != (tt.seed == 0) || desc != nil && desc.Seed != tt.seed {
					t.Errorf("description %+v, want seed %d", desc, tt.seed)
				}
				return nil
			}}
			err := app.Run(append([]string{"rdbgen"}, tt.args...))
			if tt.errStart == "" && err != nil || tt.errStart != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.errStart)) {
				t.Fatalf("got %v, want %q", err, tt.errStart)
			}
		})
	}
}

// TestImportAndLoadRewrite: import --rewrite writes a file, and load --rewrite fills a
// server, that hold the input's keys and types but none of the values the rules replace;
// both record the rules in the manifest, and a value gets the same replacement both ways.
func TestImportAndLoadRewrite(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "users.jsonl")
	rules := filepath.Join(dir, "rules.yaml")
	os.WriteFile(in, []byte(`{"key":"user:1","type":"hash","hash":{"email":"ann@example.com","plan":"pro"}}
{"key":"user:2","type":"hash","hash":{"email":"bob@example.com","plan":"free"}}
{"key":"users","type":"set","members":["1","2"]}
`), 0o644)
	os.WriteFile(rules, []byte("seed: 7\nrules:\n  - key: 'user:*'\n    fields:\n      email: {fake: email}\n"), 0o644)
	out := filepath.Join(dir, "u.rdb")
	if _, stderr, err := run(t, context.Background(), "import", in, "-o", out, "--rewrite", rules, "-q"); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("ann@example.com")) || bytes.Contains(b, []byte("bob@example.com")) || !bytes.Contains(b, []byte("free")) {
		t.Fatal("the file holds an original e-mail address, or lost a field no rule touches")
	}
	m, err := manifest.Read(manifest.PathFor(out))
	if err != nil || m.Rewrite == nil || m.Import == nil {
		t.Fatalf("manifest %+v, %v: no rewrite section", m, err)
	}
	fromFile := servertest.Start(t, out)
	want, err := fromFile.Client().HGet(context.Background(), "user:1", "email").Result()
	if err != nil || want == "ann@example.com" || !strings.Contains(want, "@") {
		t.Fatalf("HGET user:1 email = %q, %v", want, err)
	}

	srv := servertest.StartEmpty(t)
	mpath := filepath.Join(dir, "load.json")
	if _, stderr, err := run(t, context.Background(), "load", in, "--addr", srv.Addr, "--rewrite", rules, "--manifest", mpath, "-q"); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if got, err := srv.Client().HGet(context.Background(), "user:1", "email").Result(); err != nil || got != want {
		t.Fatalf("loaded HGET user:1 email = %q, %v; the file says %q", got, err, want)
	}
	if n, err := srv.Client().DBSize(context.Background()).Result(); err != nil || n != 3 {
		t.Fatalf("DBSIZE = %d, %v", n, err)
	}
	if m, err := manifest.Read(mpath); err != nil || m.Rewrite == nil {
		t.Fatalf("load manifest %+v, %v: no rewrite section", m, err)
	}
	checkBadInput(t, []string{"load", "--count", "1", "--rewrite", rules}, "--rewrite applies to the records of an input file")
}
