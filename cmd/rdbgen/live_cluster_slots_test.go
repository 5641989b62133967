package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// startMigrating starts a three-primary cluster of 50 keys in one slot, two of them migrated
// to another primary, the slot left IMPORTING and MIGRATING; it returns the URL of a node,
// the slot and the importing primary's address.
func startMigrating(t *testing.T) (url string, slot int, to string) {
	c, layout := servertest.StartCluster(t)
	for i := range 50 {
		if err := c.Client().Set(t.Context(), "{m}:"+strconv.Itoa(i), i, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	slot = cluster.KeySlot("{m}")
	from, into := c.Nodes[layout.ShardOf([]byte("{m}"))], c.Nodes[(layout.ShardOf([]byte("{m}"))+1)%3]
	if err := localcluster.Migrate(t.Context(), slot, from, into, "{m}:1", "{m}:2"); err != nil {
		t.Fatal(err)
	}
	return "redis://" + c.Nodes[0].Addr, slot, into.Addr
}

// TestConvertLiveClusterMigrating converts a three-primary cluster while a slot is being
// migrated (IMPORTING and MIGRATING set, part of its keys moved): one line naming the slot
// and --allow-moving-slots, and no file; with the flag, the file and a summary that counts
// the slot.
func TestConvertLiveClusterMigrating(t *testing.T) {
	ctx := t.Context()
	url, slot, _ := startMigrating(t)
	out := filepath.Join(t.TempDir(), "all.rdb")
	_, _, err := run(t, ctx, "convert", url, "--cluster", "-o", out)
	want := "slot " + strconv.Itoa(slot) + " migrating or moved while the cluster was read"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--allow-moving-slots") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("got %v, want one line saying %q", err, want)
	}
	if got := dirEntries(t, filepath.Dir(out)); len(got) != 0 {
		t.Fatalf("left %v", got)
	}
	stdout, stderr, err := run(t, ctx, "convert", url, "--cluster", "-o", out, "--allow-moving-slots")
	if err != nil || !strings.Contains(stdout, "1 slots migrated or moved between primaries during the reading") {
		t.Fatalf("--allow-moving-slots: %v: %s%s", err, stdout, stderr)
	}
	_, _, err = run(t, ctx, "convert", url, "-o", out, "-f", "--allow-moving-slots")
	if err == nil || !strings.Contains(err.Error(), "--allow-moving-slots goes with --cluster") {
		t.Fatalf("without --cluster: %v", err)
	}
}

// TestConvertLiveClusterMigratingScan is TestConvertLiveClusterMigrating read with --via
// scan: the importing primary answers MOVED for the keys moved to it, which is the slot's
// move, named as one, not a DUMP's error; --allow-moving-slots reads on past them, counted.
func TestConvertLiveClusterMigratingScan(t *testing.T) {
	ctx := t.Context()
	url, slot, to := startMigrating(t)
	out := filepath.Join(t.TempDir(), "all.rdb")
	_, _, err := run(t, ctx, "convert", url, "--cluster", "--via", "scan", "-o", out)
	want := "slot " + strconv.Itoa(slot) + " migrating or moved while the cluster was read"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--allow-moving-slots") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("got %v, want one line saying %q", err, want)
	}
	if got := dirEntries(t, filepath.Dir(out)); len(got) != 0 {
		t.Fatalf("left %v", got)
	}
	stdout, stderr, err := run(t, ctx, "convert", url, "--cluster", "--via", "scan", "-o", out, "--allow-moving-slots")
	if err != nil || !strings.Contains(stdout, "1 slots migrated or moved between primaries during the reading") {
		t.Fatalf("--allow-moving-slots: %v: %s%s", err, stdout, stderr)
	}
	_, _, err = run(t, ctx, "convert", "redis://"+to, "--via", "scan", "-o", filepath.Join(t.TempDir(), "one.rdb"))
	want = "answered MOVED or ASK for 2 listed keys, in slot " + strconv.Itoa(slot)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("one primary: got %v, want %q", err, want)
	}
}
