package live_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// startServer starts a redis-server on the RDB file at path (an empty one when path is
// ""), with args and the debug command, stopped when the test ends.
func startServer(t *testing.T, path string, args ...string) *server.Instance {
	t.Helper()
	args = append([]string{"--enable-debug-command", "yes"}, args...)
	if path == "" {
		return servertest.StartEmpty(t, args...)
	}
	return servertest.Start(t, path, args...)
}

// writeFile writes src into a new redis-7.0 RDB file and returns its path.
func writeFile(t *testing.T, src record.Source) string {
	t.Helper()
	return servertest.WriteSource(t, src, encoder.Options{Target: "redis-7.0"})
}

// fill gives the server of c every type in several encodings, expiries, three databases,
// two function libraries and streams with consumer groups, one of whose pending entries was
// deleted.
func fill(t *testing.T, addr string) {
	t.Helper()
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
	defer c.Close()
	do := func(args ...any) any {
		t.Helper()
		v, err := c.Do(ctx, args...).Result()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return v
	}
	for _, code := range redistest.FunctionLibraries {
		do("FUNCTION", "LOAD", code)
	}
	do("SET", "s", "hello")
	do("SET", "n", "-12345")
	do("SET", "long", strings.Repeat("compressible ", 1000))
	do("SET", "s:ttl", "x", "EX", 3600)
	do("RPUSH", "l", "a", "b", "1", "-7")
	big := []any{"RPUSH", "l:big"}
	for i := range 3000 {
		big = append(big, strings.Repeat("e", i%50)+strconv.Itoa(i))
	}
	do(big...)
	do("SADD", "set:int", 1, 2, 3, -40000)
	do("SADD", "set", "a", "b", "c")
	members := []any{"SADD", "set:big"}
	for i := range 1000 {
		members = append(members, "m"+strconv.Itoa(i))
	}
	do(members...)
	do("ZADD", "z", 1.5, "a", -2, "b", "inf", "c", "-inf", "d")
	zbig := []any{"ZADD", "z:big"}
	for i := range 500 {
		zbig = append(zbig, float64(i)/3, "zm"+strconv.Itoa(i))
	}
	do(zbig...)
	do("HSET", "h", "f", "v", "n", 7)
	hbig := []any{"HSET", "h:big"}
	for i := range 1000 {
		hbig = append(hbig, "f"+strconv.Itoa(i), strings.Repeat("v", i%70))
	}
	do(hbig...)
	do("EXPIRE", "h:big", 7200)
	do("PEXPIREAT", "l", time.Now().Add(48*time.Hour).UnixMilli()+123)
	for i := range 300 {
		do("XADD", "st", "*", "field", i, "other", strings.Repeat("x", i%9))
	}
	do("XGROUP", "CREATE", "st", "g1", "0")
	do("XGROUP", "CREATE", "st", "g2", "$")
	do("XREADGROUP", "GROUP", "g1", "alice", "COUNT", 10, "STREAMS", "st", ">")
	r := do("XREADGROUP", "GROUP", "g1", "bob", "COUNT", 5, "STREAMS", "st", ">")
	entries := r.([]any)[0].([]any)[1].([]any)
	deleted := entries[2].([]any)[0]
	do("XDEL", "st", deleted) // bob's pending entry, now gone from the stream
	do("XACK", "st", "g1", entries[0].([]any)[0])
	do("XADD", "st:empty", "1-1", "a", "1")
	do("XDEL", "st:empty", "1-1")
	do("XGROUP", "CREATE", "st:empty", "g", "$")
	do("SELECT", 3)
	do("SET", "three", "3", "PX", 86400000)
	do("HSET", "h3", "a", "1")
	do("SELECT", 15)
	do("RPUSH", "fifteen", "x")
	do("XADD", "st15", "5-0", "k", "v")
	do("SELECT", 0)
}

// A state is what the test compares of two servers.
type state struct {
	Digest    string
	Functions []redis.Library
	Expiries  map[int]map[string]int64 // by db and key: PEXPIRETIME
	Streams   map[string]any           // by db/key: XINFO STREAM FULL without the radix tree's sizes
	Pending   map[string]any           // by db/key/group: XPENDING's entries without their idle times
}

func stateOf(t *testing.T, addr, password string) state {
	t.Helper()
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, Password: password})
	defer c.Close()
	digest, err := c.Do(ctx, "DEBUG", "DIGEST").Text()
	if err != nil {
		t.Fatal(err)
	}
	st := state{Digest: digest, Functions: redistest.FunctionList(t, c),
		Expiries: map[int]map[string]int64{}, Streams: map[string]any{}, Pending: map[string]any{}}
	for db := range 16 {
		cdb := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DB: db, Password: password})
		keys, err := cdb.Keys(ctx, "*").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if st.Expiries[db] == nil {
				st.Expiries[db] = map[string]int64{}
			}
			st.Expiries[db][k] = cdb.Do(ctx, "PEXPIRETIME", k).Val().(int64)
			if cdb.Type(ctx, k).Val() != "stream" {
				continue
			}
			full := cdb.Do(ctx, "XINFO", "STREAM", k, "FULL").Val().([]any)
			st.Streams[fmt.Sprint(db, "/", k)] = dropFields(full, "radix-tree-keys", "radix-tree-nodes")
			for _, g := range cdb.XInfoGroups(ctx, k).Val() {
				pend := cdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: k, Group: g.Name, Start: "-", End: "+", Count: 1000}).Val()
				for i := range pend {
					pend[i].Idle = 0
				}
				st.Pending[fmt.Sprint(db, "/", k, "/", g.Name)] = pend
			}
		}
		cdb.Close()
	}
	return st
}

// dropFields returns the flat field-value array a without the fields names.
func dropFields(a []any, names ...string) []any {
	var out []any
	for i := 0; i+1 < len(a); i += 2 {
		if !slices.Contains(names, fmt.Sprint(a[i])) {
			out = append(out, a[i], a[i+1])
		}
	}
	return out
}

// notices collects a Source's notices.
type notices struct {
	mu   sync.Mutex
	msgs []string
}

func (n *notices) add(m string) { n.mu.Lock(); n.msgs = append(n.msgs, m); n.mu.Unlock() }

func (n *notices) has(s string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.ContainsFunc(n.msgs, func(m string) bool { return strings.Contains(m, s) })
}

// TestLiveToFile reads filled servers, as they are set up in many ways, into RDB files and
// checks that a server loading each file holds what the source holds.
func TestLiveToFile(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		setup func(t *testing.T, c *redis.Client) // after fill
		user  string                              // the URL's user info
		via   live.Via
		want  string // a notice that must come
	}{
		{name: "sync from disk", args: []string{"--repl-diskless-sync", "no"}, want: "bytes"},
		{name: "sync diskless", args: []string{"--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0"}, want: "diskless"},
		{name: "psync renamed: sync", args: []string{"--rename-command", "PSYNC", "", "--repl-diskless-sync-delay", "0"}, want: "diskless"},
		{name: "sync and psync renamed", args: []string{"--rename-command", "SYNC", "", "--rename-command", "PSYNC", ""}, want: "SCAN"},
		{name: "scan", via: live.Scan, want: "not a point-in-time"},
		{name: "requirepass", user: ":s3cret", args: []string{"--repl-diskless-sync", "no"}, want: "bytes",
			setup: func(t *testing.T, c *redis.Client) {
				if err := c.ConfigSet(context.Background(), "requirepass", "s3cret").Err(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.ConfigSet(context.Background(), "requirepass", "") })
			}},
		{name: "ACL user", user: "reader:pw", args: []string{"--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0"}, want: "diskless",
			setup: func(t *testing.T, c *redis.Client) {
				if err := c.Do(context.Background(), "ACL", "SETUSER", "reader", "on", ">pw", "~*", "&*", "+@all").Err(); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "ACL user without replication", user: "scanner:pw", want: "NOPERM",
			setup: func(t *testing.T, c *redis.Client) {
				if err := c.Do(context.Background(), "ACL", "SETUSER", "scanner", "on", ">pw", "~*", "&*", "+@all", "-sync", "-psync").Err(); err != nil {
					t.Fatal(err)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := startServer(t, "", tt.args...)
			fill(t, src.Addr)
			if tt.setup != nil {
				tt.setup(t, src.Client())
			}
			password := ""
			if tt.name == "requirepass" {
				password = "s3cret"
			}
			want := stateOf(t, src.Addr, password)
			if p := want.Pending["0/st/g1"].([]redis.XPendingExt); len(p) != 14 {
				t.Fatalf("the source's group g1 has %d pending entries, want 14 (one deleted from the stream): %v", len(p), p)
			}
			var keys uint64
			for _, db := range want.Expiries {
				keys += uint64(len(db))
			}
			url := "redis://" + src.Addr
			if tt.user != "" {
				url = "redis://" + tt.user + "@" + src.Addr
			}
			var n notices
			var last record.Progress
			s, err := live.Open(url, live.Options{Via: tt.via, Notice: n.add, Progress: func(p record.Progress) { last = p }})
			if err != nil {
				t.Fatal(err)
			}
			dst := startServer(t, writeFile(t, s))
			if got := stateOf(t, dst.Addr, ""); !reflect.DeepEqual(got, want) {
				t.Errorf("the file's server holds\n%+v\nthe source\n%+v", got, want)
			}
			if !n.has(tt.want) {
				t.Errorf("no notice says %q: %q", tt.want, n.msgs)
			}
			if st := s.Stats(); st.Keys != keys || st.Members == 0 {
				t.Errorf("Stats: %d keys, %d members; want %d keys and some members", st.Keys, st.Members, keys)
			}
			if last.Keys != keys {
				t.Errorf("the last progress reports %d keys, want %d: %+v", last.Keys, keys, last)
			}
		})
	}
}

// TestCancel cancels a reading once it has begun, by sync and by scan: WriteTo returns the
// context's error, and the source server goes on.
func TestCancel(t *testing.T) {
	src := startServer(t, "", "--repl-diskless-sync", "no")
	c := redis.NewClient(&redis.Options{Addr: src.Addr, Protocol: 2})
	defer c.Close()
	if err := c.Do(context.Background(), "DEBUG", "POPULATE", 200000, "key", 100).Err(); err != nil {
		t.Fatal(err)
	}
	for _, via := range []live.Via{live.Sync, live.Scan} {
		ctx, cancel := context.WithCancel(context.Background())
		var seen record.Progress
		s, err := live.Open("redis://"+src.Addr, live.Options{Via: via, Progress: func(p record.Progress) {
			if p.Keys > 0 && seen.Keys == 0 {
				seen = p
				cancel()
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		count := &record.Count{}
		err = s.WriteTo(ctx, count)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", via, err)
		}
		if via == live.Sync && seen.Bytes < 1<<20 {
			t.Errorf("sync: the first progress with keys reports %d bytes, want the first MiB's", seen.Bytes)
		}
		if count.Counts.Keys == 0 || count.Counts.Keys >= 200000 {
			t.Errorf("%s: %d keys read before the cancel took, want some of 200000", via, count.Counts.Keys)
		}
		if n, err := c.DBSize(context.Background()).Result(); err != nil || n != 200000 {
			t.Errorf("%s: the source holds %d keys (%v) after the cancel", via, n, err)
		}
	}
}

// TestSnapshot reads the raw snapshot of servers that send it in either form: whole, its
// size as told, ending with its own checksum (no byte of the diskless form's end mark), and
// a file that a server loads into the source's state.
func TestSnapshot(t *testing.T) {
	for _, diskless := range []string{"no", "yes"} {
		src := startServer(t, "", "--repl-diskless-sync", diskless, "--repl-diskless-sync-delay", "0")
		fill(t, src.Addr)
		s, err := live.Open("redis://"+src.Addr, live.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sn, err := s.Snapshot(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(sn)
		sn.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(len(b)); (diskless == "no" && sn.Size != want) || (diskless == "yes" && sn.Size != -1) {
			t.Errorf("diskless %s: Size %d for %d bytes", diskless, sn.Size, want)
		}
		n := len(b) - 8
		if n < 9 || rdb.Checksum(b[:n]) != binary.LittleEndian.Uint64(b[n:]) {
			t.Fatalf("diskless %s: the snapshot (%d bytes) does not end with its checksum: %q", diskless, len(b), b[max(0, n-40):])
		}
		path := filepath.Join(t.TempDir(), "dump.rdb")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		dst := startServer(t, path)
		if got, want := stateOf(t, dst.Addr, ""), stateOf(t, src.Addr, ""); !reflect.DeepEqual(got, want) {
			t.Errorf("diskless %s: the snapshot's server holds\n%+v\nthe source\n%+v", diskless, got, want)
		}
	}
}
