package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/record"
)

// TestRewriteRenameDuplicates: rename rules that map two keys onto one name make a
// duplicate like any other (issue 34, item 4): by default an error naming the key and
// --on-duplicate, with no file written, through convert and through import of JSON;
// --on-duplicate first and last each keep one of the two, and redis-server loads the file
// (before, the key was written twice and Redis refused the file).
func TestRewriteRenameDuplicates(t *testing.T) {
	ctx := context.Background()
	dump := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		return c.MSet(ctx, "user:1", "one", "user:2", "two", "other", "o").Err()
	})
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.yaml")
	if err := os.WriteFile(rules, []byte("rules:\n  - key: 'user:*'\n    rename: {const: x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonl := filepath.Join(dir, "dump.jsonl")
	if _, stderr, err := run(t, ctx, "export", dump, "--format", "jsonl", "-o", jsonl); err != nil {
		t.Fatalf("export: %v\n%s", err, stderr)
	}
	for _, in := range []string{dump, jsonl} {
		cmd := map[string]string{dump: "convert", jsonl: "import"}[in]
		out := filepath.Join(dir, cmd+".rdb")
		_, _, err := run(t, ctx, cmd, in, "--rewrite", rules, "-o", out, "-q")
		if !errors.Is(err, record.ErrDuplicateKey) || !strings.Contains(err.Error(), `key "user:x"`) || !strings.Contains(err.Error(), "--rewrite renamed") ||
			!strings.Contains(err.Error(), "--on-duplicate") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want a one-line error naming the key, --rewrite and --on-duplicate", cmd, err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: a refused run left %s", cmd, out)
		}
		kept := map[string]string{}
		for _, on := range []string{"first", "last"} {
			out := filepath.Join(dir, cmd+"-"+on+".rdb")
			stdout, stderr, err := run(t, ctx, cmd, in, "--rewrite", rules, "-o", out, "--on-duplicate", on)
			if err != nil {
				t.Fatalf("%s --on-duplicate %s: %v\n%s", cmd, on, err, stderr)
			}
			if !strings.Contains(stdout, "dropped 1 ") {
				t.Errorf("%s --on-duplicate %s: the summary does not count the record left out: %s", cmd, on, stdout)
			}
			c := servertest.Start(t, out).Client()
			n, err := c.DBSize(ctx).Result()
			v, verr := c.Get(ctx, "user:x").Result()
			o, _ := c.Get(ctx, "other").Result()
			if err != nil || verr != nil || n != 2 || o != "o" {
				t.Fatalf("%s --on-duplicate %s: the server holds %d keys (%v), user:x %q (%v), other %q", cmd, on, n, err, v, verr, o)
			}
			kept[on] = v
		}
		if kept["first"] == kept["last"] || kept["first"]+kept["last"] != "onetwo" && kept["first"]+kept["last"] != "twoone" {
			t.Errorf("%s: first kept %q, last %q; want one of each", cmd, kept["first"], kept["last"])
		}
	}
}
