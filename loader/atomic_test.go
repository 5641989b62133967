package loader_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// bigHash returns strings around a hash of n fields of 100 bytes that expires in an hour.
func bigHash(n int) records {
	h := record.Record{Key: []byte("big:hash"), Type: record.Hash, ExpireAtMS: time.Now().Add(time.Hour).UnixMilli()}
	for i := range n {
		h.Members = append(h.Members, record.Member{Name: fmt.Appendf(nil, "f%d", i), Value: []byte(strings.Repeat("v", 100))})
	}
	return around(h)
}

// bigStream returns strings around a stream of n entries of 100 bytes, with a group.
func bigStream(n int) records {
	s := record.Record{Key: []byte("big:stream"), Type: record.Stream}
	for i := range n {
		s.Members = append(s.Members, record.Member{ID: record.StreamID{Ms: uint64(i + 1)},
			Fields: [][]byte{[]byte("f"), []byte(strings.Repeat("v", 100))}})
	}
	s.Stream.Groups = []record.StreamGroup{{Name: []byte("g"), LastID: record.StreamID{Ms: 1}, EntriesRead: -1}}
	return around(s)
}

// around puts ten strings before r and ten after it.
func around(r record.Record) records {
	var rs records
	for i := range 20 {
		if i == 10 {
			rs = append(rs, r)
		}
		rs = append(rs, record.Record{Key: fmt.Appendf(nil, "s%d", i), Type: record.String, Value: []byte("x")})
	}
	return rs
}

// aclUser makes a user of inst who may run every command but those of minus, and returns
// its name and password.
func aclUser(t *testing.T, inst *server.Instance, minus ...string) (string, string) {
	t.Helper()
	args := []any{"ACL", "SETUSER", "loader", "on", ">pw", "~*", "&*", "+@all"}
	for _, m := range minus {
		args = append(args, "-"+m)
	}
	if err := inst.Client().Do(t.Context(), args...).Err(); err != nil {
		t.Fatal(err)
	}
	return "loader", "pw"
}

// TestLoadLeavesNoHalfKey fails a load in the middle of a large key, by each method: out of
// memory, or a command the user may not run. The error names the key; the server holds
// neither a part of it nor its temporary key, and exactly the keys confirmed; where the
// temporary key cannot be removed, the error says so.
func TestLoadLeavesNoHalfKey(t *testing.T) {
	tests := []struct {
		name  string
		src   records
		key   string
		setup func(t *testing.T, inst *server.Instance, o *loader.Options)
		want  string
		left  int // temporary keys left behind
	}{
		{"hash out of memory", bigHash(40000), "big:hash", func(t *testing.T, inst *server.Instance, _ *loader.Options) { nearlyFull(t, inst) }, "OOM command not allowed", 0},
		{"stream out of memory", bigStream(20000), "big:stream", func(t *testing.T, inst *server.Instance, _ *loader.Options) { nearlyFull(t, inst) }, "OOM command not allowed", 0},
		{"hash expiry denied", bigHash(5000), "big:hash", func(t *testing.T, inst *server.Instance, o *loader.Options) {
			o.Username, o.Password = aclUser(t, inst, "pexpireat", "pexpire")
		}, "NOPERM", 0},
		{"stream XSETID denied", bigStream(2000), "big:stream", func(t *testing.T, inst *server.Instance, o *loader.Options) {
			o.Username, o.Password = aclUser(t, inst, "xsetid")
		}, "NOPERM", 0},
		{"stream XSETID and DEL denied", bigStream(2000), "big:stream", func(t *testing.T, inst *server.Instance, o *loader.Options) {
			o.Username, o.Password = aclUser(t, inst, "xsetid", "del")
		}, "could not be removed", 1},
	}
	methods := []loader.Options{
		{Method: loader.Sequential},
		{Method: loader.Parallel, Workers: 3},
		{Method: loader.Pipeline, Batch: 7, Workers: 2},
		{Method: loader.Pipeline},
		{Method: loader.Mass},
	}
	for _, tt := range tests {
		for _, m := range methods {
			t.Run(fmt.Sprintf("%s/%s-%d", tt.name, m.Method, m.Batch), func(t *testing.T) {
				inst := servertest.StartEmpty(t)
				opts := m
				opts.Addr = inst.Addr
				tt.setup(t, inst, &opts)
				_, err := loader.Load(t.Context(), tt.src, opts)
				var le *loader.Error
				if !errors.As(err, &le) {
					t.Fatalf("got %v, want a *loader.Error", err)
				}
				t.Log(err)
				if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("write key %q", tt.key)) || !strings.Contains(msg, tt.want) {
					t.Fatalf("error %q does not name key %q and %q", msg, tt.key, tt.want)
				}
				c := servertest.Client(t, inst.Addr, 0)
				ctx := t.Context()
				if n := c.Exists(ctx, tt.key).Val(); n != 0 {
					t.Fatalf("the server holds a part of %q: type %s", tt.key, c.Type(ctx, tt.key).Val())
				}
				temps, err := c.Keys(ctx, "*rdbgen-tmp:*").Result()
				if err != nil {
					t.Fatal(err)
				}
				if len(temps) != tt.left {
					t.Fatalf("temporary keys left: %q, want %d", temps, tt.left)
				}
				if n := c.DBSize(ctx).Val(); uint64(n) != le.Confirmed+uint64(tt.left) {
					t.Fatalf("DBSIZE %d, but %d keys confirmed and %d temporary left", n, le.Confirmed, tt.left)
				}
			})
		}
	}
}

// TestLoadLeavesNoHalfKeyInCluster fails a load into a cluster in the middle of a stream
// (XSETID denied on every node; the stream's key for the restore method; XSETID and RESTORE
// for auto, which then sends commands), by each method: no node holds a part of the stream or a
// temporary key, and the nodes hold exactly the keys confirmed.
func TestLoadLeavesNoHalfKeyInCluster(t *testing.T) {
	c, _ := servertest.StartCluster(t)
	for _, m := range loader.Methods() {
		t.Run(string(m), func(t *testing.T) {
			for _, n := range c.Nodes {
				if err := n.Client().FlushAll(t.Context()).Err(); err != nil {
					t.Fatal(err)
				}
				if m == loader.Restore { // which sends the stream as one RESTORE: denied its key
					if err := n.Client().Do(t.Context(), "ACL", "SETUSER", "loader", "reset", "on", ">pw", "~s*", "&*", "+@all").Err(); err != nil {
						t.Fatal(err)
					}
				} else if m == loader.Auto { // which finds RESTORE refused, and sends the stream's commands
					aclUser(t, n.Instance, "xsetid", "restore")
				} else {
					aclUser(t, n.Instance, "xsetid")
				}
			}
			opts := loader.Options{Addr: c.Nodes[0].Addr, Cluster: true, Method: m, Username: "loader", Password: "pw"}
			_, err := loader.Load(t.Context(), bigStream(3000), opts)
			var le *loader.Error
			if !errors.As(err, &le) || !strings.Contains(err.Error(), `write key "big:stream"`) || !strings.Contains(err.Error(), "NOPERM") {
				t.Fatalf("got %v, want a *loader.Error naming big:stream", err)
			}
			var held uint64
			for _, n := range c.Nodes {
				keys, err := n.Client().Keys(t.Context(), "*").Result()
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range keys {
					if k == "big:stream" || strings.Contains(k, "rdbgen-tmp:") {
						t.Fatalf("node %s holds %q", n.Addr, k)
					}
				}
				held += uint64(len(keys))
			}
			if held != le.Confirmed {
				t.Fatalf("the nodes hold %d keys, %d confirmed", held, le.Confirmed)
			}
		})
	}
}

// TestLoadAtomicAcrossDBs loads keys built under temporary names in three databases, by
// each method, with --db-like moves: each lands whole in its database with its expiry, an
// expired one is not loaded and removes the older value, and no temporary key is left.
func TestLoadAtomicAcrossDBs(t *testing.T) {
	exp := time.Now().Add(time.Hour).UnixMilli()
	var recs record.Records
	for db := range 3 {
		for i := range 3 {
			h := bigHash(2500)[10] // 3 commands of fields, then the expiry
			h.DB, h.Key = db, fmt.Appendf(nil, "h%d", i)
			recs = append(recs, h, record.Record{DB: db, Key: fmt.Appendf(nil, "s%d", i), Type: record.String, Value: []byte("v"), ExpireAtMS: exp})
		}
		recs = append(recs, record.Record{DB: db, Key: []byte("old"), Type: record.Hash, ExpireAtMS: 1,
			Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}})
	}
	for _, m := range []loader.Options{
		{Method: loader.Sequential},
		{Method: loader.Parallel, Workers: 4},
		{Method: loader.Pipeline, Batch: 2, Workers: 2},
		{Method: loader.Pipeline},
		{Method: loader.Mass},
	} {
		t.Run(fmt.Sprintf("%s-%d", m.Method, m.Batch), func(t *testing.T) {
			inst := servertest.StartEmpty(t)
			ctx := t.Context()
			for db := range 3 {
				if err := servertest.Client(t, inst.Addr, db+4).Set(ctx, "old", "older", 0).Err(); err != nil {
					t.Fatal(err)
				}
			}
			opts := m
			opts.Addr = inst.Addr
			opts.MapDB = func(db int) (int, error) { return db + 4, nil }
			res, err := loader.Load(ctx, recs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Keys != 18 || res.Expired != 3 || res.Expires != 18 || len(res.DBs) != 3 || res.DBs[5].Keys != 6 {
				t.Fatalf("result %+v", res)
			}
			for db := range 3 {
				c := servertest.Client(t, inst.Addr, db+4)
				if n := c.DBSize(ctx).Val(); n != 6 {
					t.Fatalf("db %d holds %d keys, want 6", db+4, n)
				}
				for i := range 3 {
					key := fmt.Sprintf("h%d", i)
					if n := c.HLen(ctx, key).Val(); n != 2500 {
						t.Fatalf("db %d: %s has %d fields", db+4, key, n)
					}
					if ttl := c.PTTL(ctx, key).Val(); ttl <= 0 {
						t.Fatalf("db %d: %s has TTL %v", db+4, key, ttl)
					}
				}
			}
			if n := servertest.Client(t, inst.Addr, 0).DBSize(ctx).Val(); n != 0 {
				t.Fatalf("db 0 holds %d keys", n)
			}
		})
	}
}
