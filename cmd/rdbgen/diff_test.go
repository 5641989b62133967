package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/redistest"
)

// exitOf returns the exit code main gives err.
func exitOf(err error) int {
	code, _ := cliflags.Status(err, false)
	return code
}

// fillTypes writes a key of each type in several encodings (small and large collections).
func fillTypes(ctx context.Context, c *redis.Client) error {
	p := c.Pipeline()
	p.Set(ctx, "s", "v", 0)
	p.Set(ctx, "n", 12345, 0)
	p.RPush(ctx, "l", "a", "b", 3)
	p.SAdd(ctx, "si", 1, 2, 3)
	p.SAdd(ctx, "ss", "a", "b")
	p.ZAdd(ctx, "z", redis.Z{Score: 1, Member: "a"}, redis.Z{Score: 2.5, Member: "b"})
	p.HSet(ctx, "h", "f", "v", "g", 1)
	for i := range 300 { // past every listpack limit: hashtable, skiplist, quicklist of nodes
		p.RPush(ctx, "bigl", strings.Repeat("x", i))
		p.SAdd(ctx, "bigs", i*7)
		p.ZAdd(ctx, "bigz", redis.Z{Score: float64(i) / 3, Member: i})
		p.HSet(ctx, "bigh", i, strings.Repeat("y", i%20))
	}
	p.XAdd(ctx, &redis.XAddArgs{Stream: "x", ID: "5-1", Values: []string{"a", "1"}})
	p.PExpire(ctx, "s", 3_600_000)
	p.Do(ctx, "SELECT", 3)
	p.Set(ctx, "s", "db 3", 0)
	_, err := p.Exec(ctx)
	return err
}

func TestDiffConversions(t *testing.T) {
	ctx := context.Background()
	dump := redistest.WriteDumpWith(t, nil, fillTypes)
	dir := t.TempDir()
	for _, target := range []string{"redis-6.2", "redis-7.0", "redis-5.0"} {
		out := filepath.Join(dir, target+".rdb")
		if _, stderr, err := run(t, ctx, "convert", dump, "-o", out, "--target", target, "-q"); err != nil {
			t.Fatalf("convert --target %s: %v\n%s", target, err, stderr)
		}
		stdout, _, err := run(t, ctx, "diff", dump, out)
		if code := exitOf(err); code != 0 {
			t.Errorf("diff of a dump and its conversion to %s: exit %d (%v)\n%s", target, code, err, stdout)
		}
	}
	// A subset (the big keys alone) differs in the 9 other keys, of db 0 and 3.
	if _, _, err := run(t, ctx, "convert", dump, "-o", filepath.Join(dir, "m.rdb"), "--match", "big*", "-q"); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := run(t, ctx, "diff", dump, filepath.Join(dir, "m.rdb"), "--limit", "1")
	if code := exitOf(err); code != 1 || !strings.Contains(stdout, "... and 8 more") {
		t.Errorf("diff with a subset: exit %d (%v), want 1 naming 1 and 8 more:\n%s", code, err, stdout)
	}
}

func TestDiffBoundaries(t *testing.T) {
	ctx := context.Background()
	empty := redistest.WriteDumpWith(t, nil, func(context.Context, *redis.Client) error { return nil })
	inDB := func(db int) string {
		return redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
			p := c.Pipeline()
			p.Do(ctx, "SELECT", db)
			p.Set(ctx, "k", "v", 0)
			_, err := p.Exec(ctx)
			return err
		})
	}
	db1, db2 := inDB(1), inDB(2)
	for _, tc := range []struct {
		name, a, b string
		code       int
		out        []string
	}{
		{"empty dumps", empty, empty, 0, []string{"same: A 0 keys, B 0 keys"}},
		{"empty and one key", empty, db1, 1, []string{`only in B: db 1 "k" (string)`}},
		{"one key in another db", db1, db2, 1, []string{`only in A: db 1 "k"`, `only in B: db 2 "k"`, "db 1: 0 same, 1 only in A", "db 2: 0 same, 0 only in A, 1 only in B"}},
		{"missing file", db1, filepath.Join(t.TempDir(), "none.rdb"), 2, nil},
		{"not a dump", db1, "diff_test.go", 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, _, err := run(t, ctx, "diff", tc.a, tc.b)
			if code := exitOf(err); code != tc.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tc.code, stdout)
			}
			for _, w := range tc.out {
				if !strings.Contains(stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

// TestDiffQuiet: --quiet prints nothing and says it by the exit code alone: 0 same, 1
// different, 2 trouble with its error.
func TestDiffQuiet(t *testing.T) {
	ctx := context.Background()
	a, b := generateWith(t, "--count", "3"), generateWith(t, "--count", "4")
	for _, tt := range []struct {
		args []string
		exit int
	}{
		{[]string{"diff", "--quiet", a, a}, 0},
		{[]string{"diff", "-q", a, b}, 1},
		{[]string{"diff", "-q", a, filepath.Join(t.TempDir(), "none.rdb")}, 2},
	} {
		stdout, stderr, err := run(t, ctx, tt.args...)
		if exitOf(err) != tt.exit || stdout != "" || stderr != "" || (tt.exit == 2) != (err != nil && strings.Contains(err.Error(), "none.rdb")) {
			t.Errorf("%q: exit %d (%v), stdout %q, stderr %q; want exit %d and no output", tt.args, exitOf(err), err, stdout, stderr, tt.exit)
		}
	}
}

// TestDiffUsage: diff's usage errors are trouble, exit 2, in one line, never 1 ("different");
// -h shows the help whatever follows; two stdins are refused as such (issue 34, item 13).
func TestDiffUsage(t *testing.T) {
	ctx := context.Background()
	dump := generateWith(t, "--count", "3")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "--bogus", dump, dump}, "--bogus: no such flag for rdbgen diff (see rdbgen diff -h)"},
		{[]string{"diff", dump, dump, "--limit", "abc"}, `--limit "abc": want a whole number`},
		{[]string{"diff", "--json=maybe", dump, dump}, `--json "maybe": want true or false`},
		{[]string{"diff", dump}, "diff takes two files, got 1"},
		{[]string{"diff", "-", "-"}, "both inputs cannot be stdin"},
	} {
		_, _, err := run(t, ctx, tt.args...)
		if exitOf(err) != 2 || err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: exit %d, %v; want exit 2 and one line holding %q", tt.args, exitOf(err), err, tt.want)
		}
	}
	for _, args := range [][]string{{"diff", "-h", dump, dump}, {"diff", dump, "--help", dump}, {"convert", dump, "-h"}} {
		stdout, _, err := run(t, ctx, args...)
		if err != nil || !strings.Contains(stdout, "USAGE:") {
			t.Errorf("%q: exit %d, %v; want the help\n%s", args, exitOf(err), err, stdout)
		}
	}
}
