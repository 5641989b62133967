package loader_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// everyTypeDump returns a dump that redis-server SAVEd of every type in databases 0, 2 and
// 9: strings (an integer, a long compressible one), small and large hashes, lists, sets
// (an intset too) and sorted sets, keys with expiries, the streams of lostPendingDump's
// fill (pending entries whose entries were deleted, an idle consumer), and the function
// libraries of redistest.FunctionLibraries.
func everyTypeDump(t *testing.T) string {
	t.Helper()
	expireAt := time.Now().Add(time.Hour).UnixMilli()
	return redistest.WriteDumpWith(t, []string{"--databases", "16"}, func(ctx context.Context, c *redis.Client) error {
		for _, code := range redistest.FunctionLibraries {
			if err := c.FunctionLoad(ctx, code).Err(); err != nil {
				return err
			}
		}
		var cmds [][]any
		for _, db := range []int{0, 2, 9} {
			cmds = append(cmds, []any{"SELECT", db},
				[]any{"SET", "int", "12345"}, []any{"SET", "long", strings.Repeat("abc", 1000)},
				[]any{"SET", "ttl", "v", "PXAT", expireAt},
				[]any{"RPUSH", "list", "a", "b", "1"}, []any{"SADD", "intset", "1", "2", "300"},
				[]any{"SADD", "set", "x", "y"}, []any{"ZADD", "zset", "1.5", "a", "-2", "b"},
				[]any{"HSET", "hash", "f", "v", "g", "w"}, []any{"PEXPIREAT", "hash", expireAt},
				[]any{"XADD", "dp", "1-1", "f", "1"}, []any{"XADD", "dp", "2-1", "f", "2"}, []any{"XADD", "dp", "3-1", "f", "3"},
				[]any{"XGROUP", "CREATE", "dp", "g", "0"},
				[]any{"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "dp", ">"},
				[]any{"XGROUP", "CREATECONSUMER", "dp", "g", "idle"},
				[]any{"XDEL", "dp", "1-1"}, []any{"PEXPIREAT", "dp", expireAt},
			)
			for i := range 300 {
				cmds = append(cmds, []any{"HSET", "bighash", fmt.Sprint("field", i), strings.Repeat("v", i)},
					[]any{"RPUSH", "biglist", fmt.Sprint("element", i)},
					[]any{"ZADD", "bigzset", i, fmt.Sprint("m", i)},
					[]any{"SADD", "bigset", fmt.Sprint("member", i)})
			}
		}
		for _, cmd := range cmds {
			if err := c.Do(ctx, cmd...).Err(); err != nil {
				return fmt.Errorf("%v: %w", cmd, err)
			}
		}
		return nil
	})
}

// TestRestoreEqualsTheDump loads a dump of every type, in three databases, with a function
// library and a stream whose pending entry lost its entry, by restore (one and three
// connections) and by mass: the server then holds what a server started on the dump holds,
// every time (DEBUG DIGEST, FUNCTION LIST, XINFO STREAM FULL and XPENDING, the expiries).
func TestRestoreEqualsTheDump(t *testing.T) {
	dump := everyTypeDump(t)
	src := decoder.File{Path: dump}
	native := servertest.Start(t, dump, debugArgs...)
	want := digest(t, native.Addr)
	wantLibs := redistest.FunctionList(t, native.Client())
	view := func(addr string) string {
		var b strings.Builder
		for _, db := range []int{0, 2, 9} {
			c := servertest.Client(t, addr, db)
			fmt.Fprintf(&b, "db %d: %s\n", db, streamView(t, c, "dp", true))
			for _, k := range []string{"ttl", "hash"} {
				fmt.Fprintf(&b, "%s expires %v\n", k, c.PExpireTime(t.Context(), k).Val())
			}
		}
		return b.String()
	}
	wantView := view(native.Addr)
	if n := servertest.Client(t, native.Addr, 2).XPending(t.Context(), "dp", "g").Val().Count; n != 2 {
		t.Fatalf("the dump's stream has %d pending entries, want 2", n)
	}
	online := servertest.StartEmpty(t, debugArgs...)
	for _, opts := range []loader.Options{
		{Method: loader.Restore}, {Method: loader.Mass}, {Method: loader.Restore, Workers: 3},
	} {
		name := fmt.Sprintf("%s, %d workers", opts.Method, opts.Workers)
		flush(t, online.Addr)
		if err := online.Client().FunctionFlush(t.Context()).Err(); err != nil {
			t.Fatal(err)
		}
		opts.Addr = online.Addr
		res, err := loader.Load(t.Context(), src, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Method != opts.Method || res.Keys != 3*13 || res.Expires != 3*3 || res.Functions != 2 || len(res.DBs) != 3 || res.Restore.Fallbacks != 0 {
			t.Errorf("%s: result %+v", name, res)
		}
		if got := digest(t, online.Addr); got != want {
			t.Errorf("%s: DEBUG DIGEST %s, the dump's %s", name, got, want)
		}
		if got := redistest.FunctionList(t, online.Client()); !reflect.DeepEqual(got, wantLibs) {
			t.Errorf("%s: FUNCTION LIST %v, want %v", name, got, wantLibs)
		}
		if got := view(online.Addr); got != wantView {
			t.Errorf("%s: streams and expiries\n got %s\nwant %s", name, got, wantView)
		}
	}
}

// TestRestoreBusyKey: without Replace, a key the server holds stops the load with an error
// naming it and the flag; with Replace, the load replaces it.
func TestRestoreBusyKey(t *testing.T) {
	inst := servertest.StartEmpty(t, debugArgs...)
	d := &dataset.Config{Count: 100, Type: record.Hash, Members: dataset.Range{Min: 1, Max: 5}, KeyPrefix: "h:"}
	if _, err := loader.Load(t.Context(), d, loader.Options{Addr: inst.Addr, Method: loader.Restore}); err != nil {
		t.Fatal(err)
	}
	want := digest(t, inst.Addr)
	if err := inst.Client().Set(t.Context(), "h:50", "changed", 0).Err(); err != nil {
		t.Fatal(err)
	}
	_, err := loader.Load(t.Context(), d, loader.Options{Addr: inst.Addr, Method: loader.Restore})
	if err == nil || !strings.Contains(err.Error(), `write key "h:0"`) || !strings.Contains(err.Error(), "BUSYKEY") || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("second load without replace: %v, want BUSYKEY naming h:0 and --replace", err)
	}
	// A record whose expiry has passed leaves a key the server holds as it is.
	gone := records{{Key: []byte("h:50"), Type: record.String, Value: []byte("old"), ExpireAtMS: 1000}}
	res, err := loader.Load(t.Context(), gone, loader.Options{Addr: inst.Addr, Method: loader.Restore})
	if err == nil || !strings.Contains(err.Error(), "BUSYKEY") || inst.Client().Get(t.Context(), "h:50").Val() != "changed" {
		t.Fatalf("expired record over a key the server holds: %+v, %v; h:50 holds %q", res, err, inst.Client().Get(t.Context(), "h:50").Val())
	}
	res, err = loader.Load(t.Context(), d, loader.Options{Addr: inst.Addr, Method: loader.Restore, Replace: true})
	if err != nil || res.Keys != 100 {
		t.Fatalf("with replace: %d keys, %v", res.Keys, err)
	}
	if got := digest(t, inst.Addr); got != want {
		t.Fatalf("with replace: digest %s, want %s", got, want)
	}
}

// bigRecords are records whose payloads pass 1 MiB, the smallest proto-max-bulk-len a
// server takes: a hash whose fields alone pass it (sent as commands as soon as they do), a
// set whose members stay under it but whose payload does not (sent as commands at its end),
// with an expiry; and small keys around them, sent as RESTORE.
func bigRecords() records {
	rnd := rand.New(rand.NewPCG(4, 5))
	hash := record.Record{Key: []byte("bighash"), Type: record.Hash}
	for i := range 1500 {
		v := make([]byte, 1000)
		for j := range v {
			v[j] = byte('a' + rnd.IntN(26))
		}
		hash.Members = append(hash.Members, record.Member{Name: fmt.Appendf(nil, "f%d", i), Value: v})
	}
	set := record.Record{Key: []byte("bigset"), Type: record.Set, ExpireAtMS: time.Now().Add(time.Hour).UnixMilli()}
	for i := range 140000 {
		set.Members = append(set.Members, record.Member{Name: fmt.Appendf(nil, "m%06d", i)})
	}
	small := func(key string) record.Record {
		return record.Record{Key: []byte(key), Type: record.List, Members: []record.Member{{Name: []byte("a")}, {Name: []byte("b")}}}
	}
	return records{small("before"), hash, small("between"), set, small("after")}
}

// TestRestoreFallsBackToCommands loads records whose payloads pass the server's
// proto-max-bulk-len (set to its least, 1 MiB): they arrive as commands, equal to what a
// server started on a file of the same records holds, and the keys around them as RESTORE.
func TestRestoreFallsBackToCommands(t *testing.T) {
	recs := bigRecords()
	want := digest(t, servertest.Start(t, writeRDB(t, recs), debugArgs...).Addr)
	inst := servertest.StartEmpty(t, append([]string{"--proto-max-bulk-len", "1mb"}, debugArgs...)...)
	if got := inst.Client().ConfigGet(t.Context(), "proto-max-bulk-len").Val()["proto-max-bulk-len"]; got != "1048576" {
		t.Fatalf("proto-max-bulk-len %s, want 1048576", got)
	}
	for _, workers := range []int{1, 2} {
		flush(t, inst.Addr)
		res, err := loader.Load(t.Context(), recs, loader.Options{Addr: inst.Addr, Method: loader.Restore, Workers: workers})
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		if res.Keys != 5 || res.Expires != 1 || res.Restore.Fallbacks != 2 {
			t.Fatalf("%d workers: %d keys, %d expiring, %d sent as commands; want 5, 1, 2", workers, res.Keys, res.Expires, res.Restore.Fallbacks)
		}
		if got := digest(t, inst.Addr); got != want {
			t.Fatalf("%d workers: digest %s, the file's %s", workers, got, want)
		}
	}
	// A key sent as commands, which the server holds already, is not replaced either.
	flush(t, inst.Addr)
	c := servertest.Client(t, inst.Addr, 0)
	if err := c.Set(t.Context(), "bighash", "mine", 0).Err(); err != nil {
		t.Fatal(err)
	}
	_, err := loader.Load(t.Context(), recs, loader.Options{Addr: inst.Addr, Method: loader.Restore})
	if err == nil || !strings.Contains(err.Error(), `write key "bighash"`) || !strings.Contains(err.Error(), "BUSYKEY") {
		t.Fatalf("got %v, want BUSYKEY naming bighash", err)
	}
	if v, err := c.Get(t.Context(), "bighash").Result(); err != nil || v != "mine" {
		t.Fatalf("bighash holds %q (%v), want the server's own value", v, err)
	}
	if temps := c.Keys(t.Context(), "*rdbgen-tmp:*").Val(); len(temps) != 0 {
		t.Fatalf("temporary keys left: %q", temps)
	}
	// Nor by a record whose expiry has passed; without such a key, it counts as expired.
	expired := records{recs[1]}
	expired[0].ExpireAtMS = 1000
	if _, err := loader.Load(t.Context(), expired, loader.Options{Addr: inst.Addr, Method: loader.Restore}); err == nil ||
		!strings.Contains(err.Error(), "BUSYKEY") || c.Get(t.Context(), "bighash").Val() != "mine" {
		t.Fatalf("expired big record over a key the server holds: %v", err)
	}
	flush(t, inst.Addr)
	if res, err := loader.Load(t.Context(), expired, loader.Options{Addr: inst.Addr, Method: loader.Restore}); err != nil || res.Expired != 1 || res.Keys != 0 {
		t.Fatalf("expired big record: %+v, %v", res, err)
	}
	res, err := loader.Load(t.Context(), recs, loader.Options{Addr: inst.Addr, Method: loader.Restore, Replace: true})
	if err != nil || res.Keys != 5 {
		t.Fatalf("with replace: %d keys, %v", res.Keys, err)
	}
	if got := digest(t, inst.Addr); got != want {
		t.Fatalf("with replace: digest %s, the file's %s", got, want)
	}
}
