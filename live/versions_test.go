package live_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// startVersion starts the hand-built server name on an empty RDB 9 file (which every
// version loads), with args, stopped when the test ends; the test skips without it.
func startVersion(t *testing.T, name string, args ...string) *server.Instance {
	t.Helper()
	bin := redistest.VersionServer(t, name)
	path := servertest.GenerateFile(t, &dataset.Config{}, encoder.Options{Target: "redis-5.0"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: bin, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	return inst
}

// fillOld gives a server of any version from 5.0 on every type but streams' groups, in
// two databases, with expiries.
func fillOld(t *testing.T, c *redis.Client) {
	t.Helper()
	ctx := context.Background()
	for _, args := range [][]any{
		{"SET", "s", "hello"}, {"SET", "s:ttl", "x", "EX", 3600}, {"RPUSH", "l", "a", "b", 1},
		{"SADD", "set", "a", "b"}, {"ZADD", "z", 1.5, "a"}, {"HSET", "h", "f", "v"},
		{"XADD", "st", "1-1", "f", "v"}, {"SELECT", 2}, {"SET", "two", "2"}, {"SELECT", 0},
	} {
		if err := c.Do(ctx, args...).Err(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
}

// TestScanOldServers reads Redis 5.0 and 6.2 with SCAN and DUMP, asked for and as the
// fallback from a refused sync: a server before 7.0 knows one INFO section at a time, and
// neither FUNCTION nor CLIENT NO-TOUCH. The file loads into the installed server with the
// source's digest.
func TestScanOldServers(t *testing.T) {
	for _, name := range []string{"redis-5.0.14", "redis-6.2.16"} {
		for _, fallback := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/fallback=%v", name, fallback), func(t *testing.T) {
				var args []string
				if fallback {
					args = []string{"--rename-command", "SYNC", "", "--rename-command", "PSYNC", ""}
				}
				src := startVersion(t, name, args...)
				fillOld(t, src.Client())
				want, err := src.Client().Do(t.Context(), "DEBUG", "DIGEST").Text()
				if err != nil {
					t.Fatal(err)
				}
				opts := live.Options{Via: live.Scan}
				if fallback {
					opts.Via = live.Sync
				}
				var n notices
				opts.Notice = n.add
				s, err := live.Open("redis://"+src.Addr, opts)
				if err != nil {
					t.Fatal(err)
				}
				dst := startServer(t, writeFile(t, s))
				if got := stateOf(t, dst.Addr, "").Digest; got != want {
					t.Errorf("the file's server has digest %s, the source %s", got, want)
				}
				if !s.Touched() || !n.has("no CLIENT NO-TOUCH") {
					t.Errorf("Touched %v, notices %q: want the scan's touch said", s.Touched(), n.msgs)
				}
				// The fallback names the server (one of a cluster's primaries, say).
				if fallback && !n.has("redis://"+src.Addr+": live: the server refuses replication") {
					t.Errorf("notices %q: want the fallback said of redis://%s", n.msgs, src.Addr)
				}
			})
		}
	}
}

// idle returns OBJECT IDLETIME of key.
func idle(t *testing.T, c *redis.Client, key string) int64 {
	t.Helper()
	n, err := c.ObjectIdleTime(t.Context(), key).Result()
	if err != nil {
		t.Fatal(err)
	}
	return int64(n / time.Second)
}

// TestScanNoTouch: a scan of Redis 7.2+ leaves the keys' idle time as it was (CLIENT
// NO-TOUCH); one of 7.0, which has no NO-TOUCH, says that it reset them.
func TestScanNoTouch(t *testing.T) {
	servers := []struct {
		name    string
		start   func(t *testing.T) *server.Instance
		touches bool
	}{
		{"installed", func(t *testing.T) *server.Instance { return startServer(t, "") }, true},
		{"redis-7.2.6", func(t *testing.T) *server.Instance { return startVersion(t, "redis-7.2.6") }, false},
		{"redis-7.4.1", func(t *testing.T) *server.Instance { return startVersion(t, "redis-7.4.1") }, false},
		{"valkey-8.0.1", func(t *testing.T) *server.Instance { return startVersion(t, "valkey-8.0.1") }, false},
	}
	for _, sv := range servers {
		t.Run(sv.name, func(t *testing.T) {
			src := sv.start(t)
			c := src.Client()
			if err := c.Set(t.Context(), "k", "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(3 * time.Second)
			before := idle(t, c, "k")
			if before < 2 {
				t.Fatalf("OBJECT IDLETIME %d after 3 s", before)
			}
			var n notices
			s, err := live.Open("redis://"+src.Addr, live.Options{Via: live.Scan, Notice: n.add})
			if err != nil {
				t.Fatal(err)
			}
			count := &record.Count{}
			if err := s.WriteTo(t.Context(), count); err != nil || count.Counts.Keys != 1 {
				t.Fatalf("read %d keys: %v", count.Counts.Keys, err)
			}
			after := idle(t, c, "k")
			if touched := after < before; touched != sv.touches {
				t.Errorf("OBJECT IDLETIME %d before the scan, %d after; want touched %v", before, after, sv.touches)
			}
			if s.Touched() != sv.touches || n.has("OBJECT IDLETIME") != sv.touches {
				t.Errorf("Touched() %v, notices %q; want touched %v said", s.Touched(), n.msgs, sv.touches)
			}
		})
	}
}

// TestScanLimitedUser reads a server as ACL users limited to key patterns and without the
// FUNCTION commands (issue 34, item 18): a scan learns the patterns the user may read
// (ACL GETUSER: ~p, %R~p, selectors; not %W~p) and reads those keys alone, saying so;
// a user who may not run ACL GETUSER reads with Match, and without it the first DUMP
// outside is an error naming the key (ErrKeyRefused); without DropFunctions, FUNCTION LIST
// is refused.
func TestScanLimitedUser(t *testing.T) {
	src := startServer(t, "")
	c := src.Client()
	ctx := t.Context()
	for _, args := range [][]any{
		{"ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+@all", "-function", "-sync", "-psync"},
		{"ACL", "SETUSER", "multi", "on", ">pw", "~app:*", "%R~ro:*", "%W~wo:*", "+@all", "-function", "-sync", "-psync", "(~sel:* +@all)"},
		{"ACL", "SETUSER", "noacl", "on", ">pw", "~app:*", "+@all", "-function", "-sync", "-psync", "-acl"},
		{"ACL", "SETUSER", "nokeys", "on", ">pw", "resetkeys", "+@all", "-function", "-sync", "-psync"},
		{"SET", "app:1", "a"}, {"HSET", "app:2", "f", "v"}, {"SET", "other", "x"},
		{"SET", "ro:1", "r"}, {"SET", "wo:1", "w"}, {"SET", "sel:1", "s"},
		{"FUNCTION", "LOAD", redistest.FunctionLibraries[0]},
	} {
		if err := c.Do(ctx, args...).Err(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	for _, tt := range []struct {
		user, match string
		keys        uint64
		patterns    string // KeyPatterns, joined
		outside     uint64
		notice      string
	}{
		{user: "app", keys: 2, patterns: "app:*", notice: "may read only the keys matching app:*"},
		{user: "app", match: "app:1", keys: 1, patterns: "app:*"},
		{user: "multi", keys: 4, patterns: "app:* ro:* sel:*", outside: 2, notice: "2 keys of"},
		{user: "noacl", match: "app:*", keys: 2, notice: "may not run ACL WHOAMI"},
		{user: "default", keys: 6},
	} {
		n := &notices{}
		s, err := live.Open("redis://"+tt.user+":pw@"+src.Addr, live.Options{Via: live.Scan, Match: tt.match, DropFunctions: true, Notice: n.add})
		if tt.user == "default" {
			s, err = live.Open("redis://"+src.Addr, live.Options{Via: live.Scan, DropFunctions: true, Notice: n.add})
		}
		if err != nil {
			t.Fatal(err)
		}
		count := &record.Count{}
		err = s.WriteTo(ctx, count)
		if err != nil || count.Counts.Keys != tt.keys {
			t.Errorf("%s, match %q: %d keys, %v; want %d", tt.user, tt.match, count.Counts.Keys, err, tt.keys)
		}
		if got := strings.Join(s.KeyPatterns(), " "); got != tt.patterns || s.Outside() != tt.outside {
			t.Errorf("%s, match %q: key patterns %q, %d outside; want %q, %d", tt.user, tt.match, got, s.Outside(), tt.patterns, tt.outside)
		}
		if tt.notice != "" && !n.has(tt.notice) {
			t.Errorf("%s, match %q: notices %q; want one saying %q", tt.user, tt.match, n.msgs, tt.notice)
		}
	}
	read := func(user string, opts live.Options) error {
		s, err := live.Open("redis://"+user+":pw@"+src.Addr, opts)
		if err != nil {
			t.Fatal(err)
		}
		return s.WriteTo(ctx, &record.Count{})
	}
	err := read("noacl", live.Options{Via: live.Scan, DropFunctions: true})
	if !errors.Is(err, live.ErrKeyRefused) || !strings.Contains(err.Error(), `DUMP "`) || !strings.Contains(err.Error(), "may not run ACL WHOAMI") {
		t.Errorf("ACL GETUSER refused, without Match: %v; want the DUMP of a key outside refused (ErrKeyRefused), saying why", err)
	}
	err = read("nokeys", live.Options{Via: live.Scan, DropFunctions: true})
	if err == nil || !strings.Contains(err.Error(), "may read no key") {
		t.Errorf("a user without keys: %v; want an error saying it may read no key", err)
	}
	err = read("app", live.Options{Via: live.Scan})
	if err == nil || !strings.Contains(err.Error(), "FUNCTION LIST") || !strings.Contains(err.Error(), "--drop-functions") {
		t.Errorf("without DropFunctions: %v; want FUNCTION LIST refused, naming --drop-functions", err)
	}
}

// TestPasswordOption: Options.Password authenticates where the URL has no password, and
// with a URL that has one is an error.
func TestPasswordOption(t *testing.T) {
	src := startServer(t, "")
	if err := src.Client().ConfigSet(t.Context(), "requirepass", "s3cret").Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		src.Client().Do(context.Background(), "AUTH", "s3cret")
		src.Client().ConfigSet(context.Background(), "requirepass", "")
	})
	s, err := live.Open("redis://"+src.Addr, live.Options{Via: live.Scan, Password: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.WriteTo(t.Context(), &record.Count{}); err != nil {
		t.Errorf("with Password: %v", err)
	}
	if _, err := live.Open("redis://:other@"+src.Addr, live.Options{Password: "s3cret"}); !errors.Is(err, live.ErrBadOption) {
		t.Errorf("a password in the URL and in Options: %v, want ErrBadOption", err)
	}
}
