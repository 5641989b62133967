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
