package loader_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// mixedLibrary is the function library of mixedDump.
const mixedLibrary = "#!lua name=mixlib\nredis.register_function('mixfn', function(keys, args) return 1 end)"

// mixedDump writes, with a real server, a dump of every type into each of dbs: strings
// (of text and integers) with and without TTLs, small and large hashes, lists, sets and
// sorted sets, some expiring, a stream with a consumer group and pending entries (with lost,
// one whose entry was deleted, which only RESTORE carries), and a function library.
func mixedDump(t *testing.T, lost bool, dbs ...int) string {
	return redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		if err := c.FunctionLoad(ctx, mixedLibrary).Err(); err != nil {
			return err
		}
		conn := c.Conn()
		defer conn.Close()
		for _, db := range dbs {
			if err := conn.Select(ctx, db).Err(); err != nil {
				return err
			}
			p := conn.Pipeline()
			for i := range 3000 {
				p.Set(ctx, fmt.Sprintf("s:%d:%d", db, i), fmt.Sprintf("value-%d", i), 0)
			}
			for i := range 300 {
				p.Set(ctx, fmt.Sprintf("n:%d:%d", db, i), i, 0)
				p.Set(ctx, fmt.Sprintf("st:%d:%d", db, i), "expiring", 3600e9)
			}
			for i := range 200 {
				h := fmt.Sprintf("h:%d:%d", db, i)
				p.HSet(ctx, h, "a", i, "b", "text", "c", strings.Repeat("x", i))
				l := fmt.Sprintf("l:%d:%d", db, i)
				p.RPush(ctx, l, "one", i, "three")
				p.SAdd(ctx, fmt.Sprintf("set:%d:%d", db, i), i, i+1, i+2)
				p.SAdd(ctx, fmt.Sprintf("sset:%d:%d", db, i), "a", "b", i)
				p.ZAdd(ctx, fmt.Sprintf("z:%d:%d", db, i), redis.Z{Score: float64(i) / 3, Member: "m"}, redis.Z{Score: -1, Member: "n"})
				if i%4 == 0 {
					p.PExpire(ctx, h, 7200e9)
					p.PExpire(ctx, l, 7200e9)
				}
			}
			for i := range 3000 {
				p.HSet(ctx, fmt.Sprintf("bigh:%d", db), fmt.Sprintf("f%d", i), i)
				p.ZAdd(ctx, fmt.Sprintf("bigz:%d", db), redis.Z{Score: float64(i), Member: fmt.Sprintf("m%d", i)})
				p.RPush(ctx, fmt.Sprintf("bigl:%d", db), i)
			}
			if _, err := p.Exec(ctx); err != nil {
				return err
			}
			stream := fmt.Sprintf("x:%d", db)
			for i := range 50 {
				if err := conn.XAdd(ctx, &redis.XAddArgs{Stream: stream, Values: []any{"f", i}}).Err(); err != nil {
					return err
				}
			}
			if err := conn.XGroupCreate(ctx, stream, "g", "0").Err(); err != nil {
				return err
			}
			read, err := conn.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "alice", Streams: []string{stream, ">"}, Count: 10}).Result()
			if err != nil {
				return err
			}
			if !lost {
				continue
			}
			if err := conn.XDel(ctx, stream, read[0].Messages[3].ID).Err(); err != nil { // a pending entry whose entry is gone
				return err
			}
		}
		return nil
	})
}

// TestAutoEqualsTheDump loads a dump of every type into three databases by the default
// method, auto: the server holds what a server started on the dump holds (DEBUG DIGEST,
// FUNCTION LIST, XINFO STREAM FULL, XPENDING), and the summary counts strings sent as MSET
// and as SET, and keys as RESTORE.
func TestAutoEqualsTheDump(t *testing.T) {
	dump := mixedDump(t, true, 0, 2, 5)
	orig := servertest.Start(t, dump, debugArgs...)
	srv := servertest.StartEmpty(t, debugArgs...)
	for range 2 { // twice: the second load replaces every key
		res, err := loader.Load(t.Context(), decoder.File{Path: dump}, loader.Options{Addr: srv.Addr, ReplaceFunctions: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Method != loader.Auto || res.Functions != 1 {
			t.Fatalf("method %s, %d libraries, want auto and 1", res.Method, res.Functions)
		}
		if a := res.Auto; a.MSet != 3*3300 || a.Set != 3*300 || a.Restore != 3*(5*200+3+1) || a.Commands != 0 || a.Refused != nil {
			t.Fatalf("auto counts %+v", a)
		}
	}
	if got, want := digest(t, srv.Addr), digest(t, orig.Addr); got != want {
		t.Fatalf("DEBUG DIGEST %s, the dump's %s", got, want)
	}
	if got, want := redistest.FunctionList(t, srv.Client()), redistest.FunctionList(t, orig.Client()); !reflect.DeepEqual(got, want) {
		t.Fatalf("FUNCTION LIST %v, want %v", got, want)
	}
	for _, db := range []int{0, 2, 5} {
		k := fmt.Sprintf("x:%d", db)
		got, want := streamView(t, servertest.Client(t, srv.Addr, db), k, true), streamView(t, servertest.Client(t, orig.Addr, db), k, true)
		if got != want {
			t.Fatalf("stream %s\n got %s\nwant %s", k, got, want)
		}
	}
}

// TestAutoIntoClusterEqualsTheDump loads a dump of every type by auto into a cluster of
// three primaries: each key is on its slot's primary with the value (DEBUG DIGEST-VALUE),
// the expiry and the stream the dump's server holds, and every primary has the library.
// MSET takes the keys of one slot: a CROSSSLOT reply would stop the load.
func TestAutoIntoClusterEqualsTheDump(t *testing.T) {
	dump := mixedDump(t, true, 0)
	orig := servertest.Start(t, dump, debugArgs...)
	oc := orig.Client()
	c, layout := servertest.StartCluster(t, debugArgs...)
	res, err := loader.Load(t.Context(), decoder.File{Path: dump}, loader.Options{Addr: c.Nodes[1].Addr, Cluster: true})
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Auto; a.MSet != 3300 || a.MSetCommands < 3 || a.Restore == 0 || a.Commands != 0 {
		t.Fatalf("auto counts %+v", a)
	}
	keys, err := oc.Keys(t.Context(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	var held int64
	for i, n := range c.Nodes {
		held += n.Client().DBSize(t.Context()).Val()
		if got, want := redistest.FunctionList(t, n.Client()), redistest.FunctionList(t, oc); !reflect.DeepEqual(got, want) {
			t.Fatalf("node %d: FUNCTION LIST %v, want %v", i, got, want)
		}
	}
	if held != int64(len(keys)) || res.Keys != uint64(len(keys)) {
		t.Fatalf("the nodes hold %d keys, the load confirmed %d, the dump has %d", held, res.Keys, len(keys))
	}
	for _, k := range keys {
		nc := c.Nodes[layout.Owner(cluster.Slot([]byte(k)))].Client()
		want, err := oc.Do(t.Context(), "DEBUG", "DIGEST-VALUE", k).StringSlice()
		if err != nil {
			t.Fatal(err)
		}
		got, err := nc.Do(t.Context(), "DEBUG", "DIGEST-VALUE", k).StringSlice()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("key %q: digest %s (%v), the dump's %s", k, got, err, want)
		}
		if oc.PTTL(t.Context(), k).Val() > 0 != (nc.PTTL(t.Context(), k).Val() > 0) {
			t.Fatalf("key %q: TTL %v, the dump's %v", k, nc.PTTL(t.Context(), k).Val(), oc.PTTL(t.Context(), k).Val())
		}
	}
	nc := c.Nodes[layout.Owner(cluster.Slot([]byte("x:0")))].Client()
	if got, want := streamView(t, nc, "x:0", true), streamView(t, oc, "x:0", true); got != want {
		t.Fatalf("stream x:0\n got %s\nwant %s", got, want)
	}
}

// TestAutoFallsBack loads by auto as users the server denies MSET, RESTORE or both: the
// load sends SET or each type's commands instead, says what was refused, and the data
// equals the dump's.
func TestAutoFallsBack(t *testing.T) {
	dump := mixedDump(t, false, 0)
	want := digest(t, servertest.Start(t, dump, debugArgs...).Addr)
	srv := servertest.StartEmpty(t, debugArgs...)
	for _, minus := range [][]string{{"mset"}, {"restore"}, {"mset", "restore"}} {
		t.Run(strings.Join(minus, "+"), func(t *testing.T) {
			flush(t, srv.Addr)
			user, pw := aclUser(t, srv, minus...)
			res, err := loader.Load(t.Context(), decoder.File{Path: dump}, loader.Options{Addr: srv.Addr, Username: user, Password: pw, ReplaceFunctions: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := digest(t, srv.Addr); got != want {
				t.Fatalf("DEBUG DIGEST %s, the dump's %s", got, want)
			}
			a := res.Auto
			for _, m := range minus {
				if !strings.Contains(fmt.Sprint(a.Refused), "refused "+strings.ToUpper(m)+" (NOPERM") {
					t.Fatalf("refused %q, want %s named", a.Refused, m)
				}
			}
			if len(a.Refused) != len(minus) || (a.MSet == 0) != strings.Contains(fmt.Sprint(minus), "mset") || (a.Restore == 0) != strings.Contains(fmt.Sprint(minus), "restore") {
				t.Fatalf("auto counts %+v, with %v denied", a, minus)
			}
			if n := len(srv.Client().Keys(t.Context(), "*rdbgen-tmp*").Val()); n != 0 {
				t.Fatalf("%d temporary keys left", n)
			}
		})
	}
}

// TestAutoUserOfSomeKeys loads by auto as a user allowed only keys starting with "key": the
// probe's own key is refused, which tells nothing of the user's keys, so the strings still
// go as MSET and the hashes as RESTORE.
func TestAutoUserOfSomeKeys(t *testing.T) {
	srv := servertest.StartEmpty(t)
	if err := srv.Client().Do(t.Context(), "ACL", "SETUSER", "app", "on", ">pw", "~key*", "+@all").Err(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []*dataset.Config{{Count: 5000, KeyPrefix: "key"}, {Count: 500, Type: record.Hash, KeyPrefix: "key", Members: dataset.Range{Min: 5, Max: 5}}} {
		res, err := loader.Load(t.Context(), d, loader.Options{Addr: srv.Addr, Username: "app", Password: "pw"})
		if err != nil {
			t.Fatal(err)
		}
		want := loader.AutoCounts{MSet: 5000, MSetCommands: 5}
		if d.Type == record.Hash {
			want = loader.AutoCounts{Restore: 500}
		}
		if !reflect.DeepEqual(res.Auto, want) {
			t.Fatalf("%s: auto counts %+v, want %+v", d.Type, res.Auto, want)
		}
	}
}
