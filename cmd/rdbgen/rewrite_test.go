package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
)

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
			var next record.Collector
			app := &cli.App{Flags: rewriteFlags(), Action: func(c *cli.Context) error {
				sink, rules, err := rewriteSink(c, &next)
				if err != nil {
					return err
				}
				if _, ok := sink.(*rewrite.Sink); ok != tt.wrapped {
					t.Errorf("wrapped %v, want %v", ok, tt.wrapped)
				}
				if (rules == nil) != (tt.seed == 0) || rules != nil && rules.Seed != tt.seed {
					t.Errorf("rules %+v, want seed %d", rules, tt.seed)
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
