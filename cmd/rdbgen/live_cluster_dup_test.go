package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/record"
)

// TestLiveClusterDuplicateKey reads a three-primary cluster of real redis-servers where two
// primaries hold one key (a stale copy left by an interrupted resharding: written through
// IMPORTING and ASKING, the slot made stable again) with convert --cluster (issue 34, item
// 3): into one file or shard files, the default is an error naming the key and both
// primaries, with nothing written; --on-duplicate first and last both keep the copy of the
// primary that owns the key's slot (the stale copy is left out, whatever the primaries'
// order), a key only a non-owner holds (a migration's copy) is kept, and redis-server loads
// what is written with every key once.
func TestLiveClusterDuplicateKey(t *testing.T) {
	ctx := context.Background()
	c, layout := servertest.StartCluster(t, "--repl-diskless-sync-delay", "0")
	const key = "k"
	slot := cluster.Slot([]byte(key))
	owner := layout.Owner(slot)
	other := (owner + 1) % 3
	cc := c.Client()
	for i := range 30 {
		if err := cc.Set(ctx, fmt.Sprintf("key:%d", i), i, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := cc.Set(ctx, key, "owner", 0).Err(); err != nil {
		t.Fatal(err)
	}
	stale := c.Nodes[other].Client()
	conn := stale.Conn()
	defer conn.Close()
	for _, cmd := range [][]any{
		{"CLUSTER", "SETSLOT", slot, "IMPORTING", c.Nodes[owner].ID},
		{"ASKING"}, {"SET", key, "stale"},
		{"CLUSTER", "SETSLOT", slot, "STABLE"},
	} {
		if err := conn.Do(ctx, cmd...).Err(); err != nil {
			t.Fatalf("%v: %v", cmd, err)
		}
	}
	if ks, err := stale.Keys(ctx, key).Result(); err != nil || len(ks) != 1 { // KEYS is not redirected
		t.Fatalf("the stale copy: %v, %v", ks, err)
	}
	url := "redis://" + c.Nodes[0].Addr
	dir := t.TempDir()
	for _, out := range []string{filepath.Join(dir, "one.rdb"), filepath.Join(dir, "shards") + "/"} {
		_, _, err := run(t, ctx, "convert", url, "--cluster", "-o", out, "--target", "redis-7.0", "-q")
		if !errors.Is(err, record.ErrDuplicateKey) || !strings.Contains(err.Error(), `key "k"`) || !strings.Contains(err.Error(), c.Nodes[owner].Addr) ||
			!strings.Contains(err.Error(), c.Nodes[other].Addr) || !strings.Contains(err.Error(), "--on-duplicate") {
			t.Errorf("-o %s: %v; want an error naming the key, both primaries and --on-duplicate", out, err)
		}
		if _, err := os.Stat(strings.TrimSuffix(out, "/")); !os.IsNotExist(err) {
			t.Errorf("-o %s: a refused read left it behind", out)
		}
	}
	want := map[string]string{"first": "owner", "last": "owner"}
	// A key that only a primary other than its slot's owner holds: the only copy, kept.
	const moved = "m"
	mslot := cluster.Slot([]byte(moved))
	mconn := c.Nodes[(layout.Owner(mslot)+2)%3].Client().Conn()
	defer mconn.Close()
	for _, cmd := range [][]any{
		{"CLUSTER", "SETSLOT", mslot, "IMPORTING", c.Nodes[layout.Owner(mslot)].ID},
		{"ASKING"}, {"SET", moved, "only"},
		{"CLUSTER", "SETSLOT", mslot, "STABLE"},
	} {
		if err := mconn.Do(ctx, cmd...).Err(); err != nil {
			t.Fatalf("%v: %v", cmd, err)
		}
	}
	for _, on := range []string{"first", "last"} {
		out := filepath.Join(dir, on+".rdb")
		stdout, stderr, err := run(t, ctx, "convert", url, "--cluster", "-o", out, "--target", "redis-7.0", "--on-duplicate", on)
		if err != nil {
			t.Fatalf("--on-duplicate %s: %v\n%s", on, err, stderr)
		}
		if !strings.Contains(stdout, "dropped 1 records of keys that came again (--on-duplicate)") {
			t.Errorf("--on-duplicate %s: the summary does not count the copy left out: %s", on, stdout)
		}
		sc := servertest.Start(t, out).Client()
		n, _ := sc.DBSize(ctx).Result()
		if v, err := sc.Get(ctx, key).Result(); err != nil || v != want[on] || n != 32 || sc.Get(ctx, moved).Val() != "only" {
			t.Errorf("--on-duplicate %s: the server holds %d keys, %s=%q (%v), %s=%q; want 32, %q, \"only\"", on, n, key, v, err, moved, sc.Get(ctx, moved).Val(), want[on])
		}
		shards := filepath.Join(dir, on) + "/"
		if _, stderr, err := run(t, ctx, "convert", url, "--cluster", "-o", shards, "--target", "redis-7.0", "--on-duplicate", on, "-q"); err != nil {
			t.Fatalf("--on-duplicate %s -o DIR/: %v\n%s", on, err, stderr)
		}
		files, _ := filepath.Glob(filepath.Join(shards, "*.rdb"))
		var total int64
		for _, f := range files {
			total += servertest.Start(t, f).Client().DBSize(ctx).Val()
		}
		if total != 32 {
			t.Errorf("--on-duplicate %s -o DIR/: the shard files %v hold %d keys, want 32", on, files, total)
		}
		// --via scan: DUMP of the stale copy and of the moved key answers MOVED, as in a slot
		// that moves. Their slots are an error naming --allow-moving-slots, in the listing
		// pass of first and last too; with it the owner's copy is kept and the moved key,
		// which SCAN and DUMP cannot read, is counted in the moving slots.
		scan := filepath.Join(dir, on+"-scan.rdb")
		if _, _, err := run(t, ctx, "convert", url, "--cluster", "--via", "scan", "-o", scan, "--target", "redis-7.0", "--on-duplicate", on, "-q"); err == nil ||
			!strings.Contains(err.Error(), "--allow-moving-slots") {
			t.Errorf("--via scan --on-duplicate %s: %v; want an error naming --allow-moving-slots", on, err)
		}
		stdout, stderr, err = run(t, ctx, "convert", url, "--cluster", "--via", "scan", "--allow-moving-slots", "-o", scan, "--target", "redis-7.0", "--on-duplicate", on)
		if err != nil {
			t.Fatalf("--via scan --allow-moving-slots --on-duplicate %s: %v\n%s", on, err, stderr)
		}
		if !strings.Contains(stdout+stderr, "2 slots") {
			t.Errorf("--via scan --allow-moving-slots --on-duplicate %s: the moving slots are not counted: %s%s", on, stdout, stderr)
		}
		sc = servertest.Start(t, scan).Client()
		if n, v := sc.DBSize(ctx).Val(), sc.Get(ctx, key).Val(); n != 31 || v != "owner" {
			t.Errorf("--via scan --allow-moving-slots --on-duplicate %s: the server holds %d keys, %s=%q; want 31, \"owner\"", on, n, key, v)
		}
	}
}
