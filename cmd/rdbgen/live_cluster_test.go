package main

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
)

// fillCluster writes keys of every type, in small and large encodings, some expiring, across
// the slots of c through its cluster client, streams with a consumer group (a few with a
// pending entry deleted), and the function libraries into every primary. It returns the
// names of the streams.
func fillCluster(t *testing.T, c *localcluster.Cluster) []string {
	t.Helper()
	ctx := t.Context()
	for _, n := range c.Nodes {
		for _, code := range redistest.FunctionLibraries {
			if err := n.Client().FunctionLoad(ctx, code).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	cc := c.Client()
	p := cc.Pipeline()
	var streams []string
	for i := range 300 {
		id := strconv.Itoa(i)
		p.Set(ctx, "s:"+id, "value "+id, 0)
		p.Set(ctx, "n:"+id, -i*1000, 0)
		p.RPush(ctx, "l:"+id, "a", id, -7)
		p.SAdd(ctx, "si:"+id, 1, 2, i+3)
		p.SAdd(ctx, "ss:"+id, "a", "b"+id)
		p.ZAdd(ctx, "z:"+id, redis.Z{Score: 1.5, Member: "m"}, redis.Z{Score: float64(-i), Member: id})
		p.HSet(ctx, "h:"+id, "f", id, "g", "x")
		p.XAdd(ctx, &redis.XAddArgs{Stream: "x:" + id, Values: []any{"f", id}})
		if i%3 == 0 {
			for _, k := range []string{"s:", "l:", "si:", "z:", "h:", "x:"} {
				p.PExpire(ctx, k+id, time.Hour+time.Duration(i)*time.Millisecond)
			}
		}
		if i < 6 { // collections past the small encodings
			var list, set, hash []any
			var zs []redis.Z
			for j := range 700 {
				m := fmt.Sprintf("member-%d-%s", j, strings.Repeat("y", j%40))
				list, set, hash = append(list, m), append(set, m), append(hash, m, j)
				zs = append(zs, redis.Z{Score: float64(j) / 3, Member: m})
			}
			p.RPush(ctx, "lb:"+id, list...)
			p.SAdd(ctx, "sb:"+id, set...)
			p.HSet(ctx, "hb:"+id, hash...)
			p.ZAdd(ctx, "zb:"+id, zs...)
		}
		if i < 9 {
			key := "xg:" + id
			streams = append(streams, key)
			for j := range 5 {
				p.XAdd(ctx, &redis.XAddArgs{Stream: key, ID: fmt.Sprintf("%d-%d", i+1, j+1), Values: []any{"n", j}})
			}
			p.XGroupCreate(ctx, key, "g", "0")
			p.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c" + id, Streams: []string{key, ">"}, Count: 3})
			if i < 3 {
				p.XDel(ctx, key, fmt.Sprintf("%d-2", i+1)) // pending, and deleted
			}
		}
	}
	if _, err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	return streams
}

// TestConvertLiveCluster reads a three-primary cluster of real redis-servers, filled with
// every type across the slots, with convert --cluster: into shard files, which verify
// --cluster passes and whose manifests name the cluster's own primaries and key counts; and
// into one file, which a standalone server loads holding every key of every primary with the
// same DEBUG DIGEST-VALUE and expiry, the same streams' groups and pending entries, and the
// libraries once. Primaries whose libraries differ are refused for shard files, not for one.
func TestConvertLiveCluster(t *testing.T) {
	c, _ := servertest.StartCluster(t, "--enable-debug-command", "yes")
	ctx := t.Context()
	streams := fillCluster(t, c)
	url := "redis://" + c.Nodes[1].Addr

	dir := filepath.Join(t.TempDir(), "shards") + "/"
	if _, _, err := run(t, ctx, "convert", url, "--cluster", "-o", dir, "--target", "redis-7.0", "-q"); err != nil {
		t.Fatal(err)
	}
	var total int64
	for i, n := range c.Nodes {
		m, err := manifest.Read(manifest.PathFor(filepath.Join(dir, fmt.Sprintf("shard-%d.rdb", i))))
		if err != nil {
			t.Fatal(err)
		}
		keys := n.Client().DBSize(ctx).Val()
		total += keys
		if m.Cluster == nil || m.Cluster.NodeID != n.ID || m.Cluster.Addr != n.Addr || int64(m.Keys) != keys || keys == 0 {
			t.Errorf("shard %d: manifest %+v, %d keys; the primary is %s at %s, %d keys", i, m.Cluster, m.Keys, n.ID, n.Addr, keys)
		}
	}
	stdout, _, err := run(t, ctx, append([]string{"verify", "--cluster", dir}, process(t)...)...)
	if err != nil || !strings.Contains(stdout, "\nPASS\n") {
		t.Fatalf("verify --cluster: %v\n%s", err, stdout)
	}

	one := filepath.Join(t.TempDir(), "one.rdb")
	if _, _, err := run(t, ctx, "convert", url, "--cluster", "-o", one, "--target", "redis-7.0", "-q"); err != nil {
		t.Fatal(err)
	}
	inst := servertest.Start(t, one, "--enable-debug-command", "yes")
	sc := inst.Client()
	if got := sc.DBSize(ctx).Val(); got != total {
		t.Fatalf("the file holds %d keys, the primaries %d", got, total)
	}
	for _, n := range c.Nodes {
		compareKeys(t, n.Client(), sc)
	}
	want, _ := c.Nodes[0].Client().FunctionList(ctx, redis.FunctionListQuery{WithCode: true}).Result()
	got, err := sc.FunctionList(ctx, redis.FunctionListQuery{WithCode: true}).Result()
	byName := func(a, b redis.Library) int { return strings.Compare(a.Name, b.Name) }
	slices.SortFunc(want, byName)
	slices.SortFunc(got, byName)
	if err != nil || len(got) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("FUNCTION LIST: %v %+v, want %+v", err, got, want)
	}
	for _, key := range streams {
		w, err1 := c.Client().Do(ctx, "XINFO", "STREAM", key, "FULL").Result()
		g, err2 := sc.Do(ctx, "XINFO", "STREAM", key, "FULL").Result()
		if err1 != nil || err2 != nil || !reflect.DeepEqual(g, w) {
			t.Errorf("XINFO STREAM %s FULL: %v %v\n got %v\nwant %v", key, err1, err2, g, w)
		}
		// The pending entries (the idle times run on): id, consumer, deliveries.
		wp, err1 := c.Client().XPendingExt(ctx, &redis.XPendingExtArgs{Stream: key, Group: "g", Start: "-", End: "+", Count: 10}).Result()
		gp, err2 := sc.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: key, Group: "g", Start: "-", End: "+", Count: 10}).Result()
		for i := range wp {
			wp[i].Idle = 0
		}
		for i := range gp {
			gp[i].Idle = 0
		}
		if err1 != nil || err2 != nil || len(wp) != 3 || !reflect.DeepEqual(gp, wp) {
			t.Errorf("XPENDING %s: %v %v\n got %v\nwant %v", key, err1, err2, gp, wp)
		}
	}

	// A library on one primary alone: in one file, written once; refused for shard files.
	extra := "#!lua name=only1\nredis.register_function('one', function() return 1 end)\n"
	if err := c.Nodes[1].Client().FunctionLoad(ctx, extra).Err(); err != nil {
		t.Fatal(err)
	}
	_, _, err = run(t, ctx, "convert", url, "--cluster", "-o", filepath.Join(t.TempDir(), "x")+"/", "--target", "redis-7.0", "-q")
	if err == nil || !strings.Contains(err.Error(), `function library "only1" is on primary redis://`+c.Nodes[1].Addr+" and not on") {
		t.Errorf("a library on one primary, shard files: %v", err)
	}
	if _, _, err := run(t, ctx, "convert", url, "--cluster", "-o", filepath.Join(t.TempDir(), "all.rdb"), "--target", "redis-7.0", "-q"); err != nil {
		t.Errorf("a library on one primary, one file: %v", err)
	}

	// Bad input: inspect of a cluster, --cluster of a file, and of a server that is no cluster node.
	_, _, err = run(t, ctx, "inspect", url, "--cluster")
	if err == nil || !strings.Contains(err.Error(), "inspect reads one server's snapshot: name a primary, without --cluster") {
		t.Errorf("inspect --cluster: %v", err)
	}
	_, _, err = run(t, ctx, "convert", one, "--cluster", "-o", filepath.Join(t.TempDir(), "y.rdb"))
	if err == nil || !strings.Contains(err.Error(), "--cluster applies to a live server's input") {
		t.Errorf("--cluster of a file: %v", err)
	}
	_, _, err = run(t, ctx, "convert", "redis://"+inst.Addr, "--cluster", "-o", filepath.Join(t.TempDir(), "z.rdb"))
	if err == nil || !strings.Contains(err.Error(), "not a cluster node: redis://"+inst.Addr) {
		t.Errorf("--cluster of a standalone server: %v", err)
	}
}

// compareKeys checks that every key of the node from is in to with the same DEBUG
// DIGEST-VALUE and absolute expiry.
func compareKeys(t *testing.T, from, to *redis.Client) {
	t.Helper()
	ctx := t.Context()
	iter := from.Scan(ctx, 0, "", 500).Iterator()
	n := 0
	for iter.Next(ctx) {
		key := iter.Val()
		n++
		for _, args := range [][]any{{"DEBUG", "DIGEST-VALUE", key}, {"PEXPIRETIME", key}, {"TYPE", key}} {
			w, err1 := from.Do(ctx, args...).Result()
			g, err2 := to.Do(ctx, args...).Result()
			if err1 != nil || err2 != nil || !reflect.DeepEqual(g, w) {
				t.Fatalf("%v: %v %v: got %v, want %v", args, err1, err2, g, w)
			}
		}
	}
	if err := iter.Err(); err != nil || n == 0 {
		t.Fatalf("scan: %v, %d keys", err, n)
	}
}
