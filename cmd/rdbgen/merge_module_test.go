package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/moduletest"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestMergeShardsModuleAux splits a dump that redis-server wrote with rdbgen's test module
// (AUX data before and after the keys, module values) into three shard files and merges
// them (issue 34, item 2): the AUX data, which every shard holds, is written once; diff of
// the dump and the merge exits 0; and a server with the module loads the merge with the
// dump's DEBUG DIGEST and MT.AUXGET. A diff that finds only AUX data differing names it on
// its verdict line, never "different" with "0 differing" alone.
func TestMergeShardsModuleAux(t *testing.T) {
	ctx := context.Background()
	so := moduletest.Build(t)
	fill := func(after string) func(context.Context, *redis.Client) error {
		return func(ctx context.Context, c *redis.Client) error {
			for _, cmd := range [][]any{{"MT.AUX", "before", "index definitions"}, {"MT.AUX", "after", after}} {
				if err := c.Do(ctx, cmd...).Err(); err != nil {
					return err
				}
			}
			for i := range 30 {
				if err := c.Do(ctx, "MT.SET", fmt.Sprintf("m:%d", i), "s", i, "b", "x").Err(); err != nil {
					return err
				}
				if err := c.Set(ctx, fmt.Sprintf("plain:%d", i), i, 0).Err(); err != nil {
					return err
				}
			}
			return nil
		}
	}
	dump := redistest.WriteDumpWith(t, []string{"--loadmodule", so}, fill("trailer"))
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	if _, stderr, err := run(t, ctx, "convert", dump, "--cluster-shards", "3", "-o", shards+"/", "--target", "redis-7.0", "-q"); err != nil {
		t.Fatalf("split: %v\n%s", err, stderr)
	}
	parts, _ := filepath.Glob(filepath.Join(shards, "shard-*.rdb"))
	merged := filepath.Join(dir, "merged.rdb")
	if _, stderr, err := run(t, ctx, append(append([]string{"merge"}, parts...), "-o", merged, "--target", "redis-7.0", "-q")...); err != nil || len(parts) != 3 {
		t.Fatalf("merge of %v: %v\n%s", parts, err, stderr)
	}
	if stdout, _, err := run(t, ctx, "diff", dump, merged); err != nil || !strings.Contains(stdout, "same: A 60 keys, B 60 keys, 0 differing") {
		t.Errorf("diff of the dump and the merge of its shards: exit %d\n%s", exitOf(err), stdout)
	}
	view := func(path string) string {
		inst := servertest.Start(t, path, "--loadmodule", so, "--enable-debug-command", "yes")
		aux, err := inst.Client().Do(ctx, "MT.AUXGET").Result()
		return fmt.Sprintf("digest %s, aux %v %v", digest(t, inst.Addr), aux, err)
	}
	if got, want := view(merged), view(dump); got != want {
		t.Errorf("the server on the merge holds %s, want %s", got, want)
	}

	// Only the AUX data differs: named, and on the verdict line.
	other := redistest.WriteDumpWith(t, []string{"--loadmodule", so}, fill("other trailer"))
	stdout, _, err := run(t, ctx, "diff", dump, other)
	if exitOf(err) != 1 || !strings.Contains(stdout, `module AUX of "rdbgen-mt" (encoding version 1) after the keys only in A (or different)`) ||
		!strings.Contains(stdout, "different: A 60 keys, B 60 keys, 0 differing keys; and 1 module AUX data\n") {
		t.Errorf("diff of dumps whose AUX data differs: exit %d\n%s", exitOf(err), stdout)
	}
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
}

// TestMergeDifferingModuleAux merges two dumps of rdbgen's test module whose AUX data after
// the keys differs, and imports their exports concatenated (issue 34, item 2): as for
// libraries (record.ModuleAuxRule), the default is an error naming the module and both
// inputs, with nothing written; --on-duplicate first keeps the first input's AUX data and
// last the last one's, counted, and a server with the module loads the result holding it.
func TestMergeDifferingModuleAux(t *testing.T) {
	ctx := context.Background()
	so := moduletest.Build(t)
	fill := func(prefix, after string) func(context.Context, *redis.Client) error {
		return func(ctx context.Context, c *redis.Client) error {
			for _, cmd := range [][]any{{"MT.AUX", "before", "index definitions"}, {"MT.AUX", "after", after},
				{"MT.SET", prefix + ":m", "s", 1, "b", "x"}, {"SET", prefix + ":s", "v"}} {
				if err := c.Do(ctx, cmd...).Err(); err != nil {
					return err
				}
			}
			return nil
		}
	}
	a := redistest.WriteDumpWith(t, []string{"--loadmodule", so}, fill("a", "trailer A"))
	b := redistest.WriteDumpWith(t, []string{"--loadmodule", so}, fill("b", "trailer B"))
	dir := t.TempDir()
	auxOf := func(path string) string {
		inst := servertest.Start(t, path, "--loadmodule", so)
		aux, err := inst.Client().Do(ctx, "MT.AUXGET").Result()
		n := inst.Client().DBSize(ctx).Val()
		return fmt.Sprintf("%d keys, aux %v %v", n, aux, err)
	}
	exports := filepath.Join(dir, "both.jsonl")
	var both []byte
	for _, d := range []string{a, b} {
		out := d + ".jsonl"
		if _, stderr, err := run(t, ctx, "export", d, "--format", "jsonl", "-o", out); err != nil {
			t.Fatalf("export: %v\n%s", err, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		both = append(both, data...)
	}
	if err := os.WriteFile(exports, both, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"merge", a, b}, {"import", exports}} {
		out := filepath.Join(dir, args[0]+".rdb")
		_, _, err := run(t, ctx, append(args, "-o", out, "--target", "redis-7.0", "-q")...)
		if err == nil || !strings.Contains(err.Error(), `module rdbgen-mt's AUX data comes twice with different bytes`) || !strings.Contains(err.Error(), "--on-duplicate") ||
			(args[0] == "merge" && (!strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b))) {
			t.Errorf("%q: %v; want an error naming the module, both inputs and --on-duplicate", args, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: wrote %s", args, out)
		}
		for on, want := range map[string]string{"first": a, "last": b} {
			out := filepath.Join(dir, args[0]+"-"+on+".rdb")
			stdout, stderr, err := run(t, ctx, append(args, "-o", out, "--target", "redis-7.0", "--on-duplicate", on)...)
			if err != nil {
				t.Errorf("%q --on-duplicate %s: %v\n%s", args, on, err, stderr)
				continue
			}
			if !strings.Contains(stdout, "dropped 1 module AUX record that came again with other bytes (--on-duplicate)") {
				t.Errorf("%q --on-duplicate %s: the summary does not count the AUX data left out: %s", args, on, stdout)
			}
			got, wantAux := auxOf(out), auxOf(want)
			if !strings.HasPrefix(got, "4 keys") || strings.TrimPrefix(got, "4 keys") != strings.TrimPrefix(wantAux, "2 keys") {
				t.Errorf("%q --on-duplicate %s: the server holds %s; want 4 keys and the AUX data of %s: %s", args, on, got, want, wantAux)
			}
		}
	}
}
