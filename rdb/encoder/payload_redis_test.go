package encoder

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/rdb"
)

// deletedPendingCommands build a stream whose group has pending entries whose entries were
// deleted (XDEL after delivery), two consumers, and a consumer with no pending entry: what
// commands cannot rebuild and a payload carries.
var deletedPendingCommands = [][]any{
	{"XADD", "dp", "1-1", "f", "1"},
	{"XADD", "dp", "2-1", "f", "2"},
	{"XADD", "dp", "3-1", "f", "3"},
	{"XADD", "dp", "4-1", "f", "4"},
	{"XGROUP", "CREATE", "dp", "g", "0"},
	{"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "dp", ">"},
	{"XREADGROUP", "GROUP", "g", "bob", "COUNT", "1", "STREAMS", "dp", ">"},
	{"XGROUP", "CREATECONSUMER", "dp", "g", "idle"},
	{"XDEL", "dp", "1-1", "3-1"},
}

// TestPayloadRestores writes, with a PayloadWriter at RDB 9 and 10, streams and strings that
// redis-server 7.0 holds, RESTOREs each payload under another name and compares the value
// with the original: DEBUG DIGEST-VALUE, XINFO STREAM FULL, XPENDING. A payload may differ
// from the server's DUMP in its encoding; the values must not.
func TestPayloadRestores(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r := startRedis(t, ctx, 10, nil)
	for _, c := range append(append([][]any{}, streamCommands...), deletedPendingCommands...) {
		if err := r.Do(ctx, c...).Err(); err != nil && err != redis.Nil {
			t.Fatalf("%v: %v", c, err)
		}
	}
	strs := map[string]string{"str:short": "hello", "str:int": "-12345", "str:empty": "",
		"str:long": strings.Repeat("compressible ", 100), "str:bin": "\x00\xff\r\n"}
	for k, v := range strs {
		must(t, r.Set(ctx, k, v, 0).Err())
	}
	keys := append(append([]string{}, streamKeys...), "dp")
	for k := range strs {
		keys = append(keys, k)
	}
	for _, v := range []int{9, 10} {
		p, err := NewPayloadWriter(Options{RDBVersion: v}, 0)
		must(t, err)
		for _, k := range keys {
			t.Run(fmt.Sprintf("RDB %d/%s", v, k), func(t *testing.T) {
				if s, ok := strs[k]; ok {
					must(t, sinkString(p.Writer, []byte(k), []byte(s), 0))
				} else {
					must(t, copyStream(t, ctx, r, p.Writer, k))
				}
				payload, err := p.Payload()
				must(t, err)
				if got, err := rdb.CheckPayload(payload, v); err != nil || got != v {
					t.Fatalf("CheckPayload: version %d, %v", got, err)
				}
				copyKey := fmt.Sprintf("copy%d:%s", v, k)
				pttl, err := r.PTTL(ctx, k).Result()
				must(t, err)
				ttl := int64(0)
				if pttl > 0 {
					ttl = pttl.Milliseconds()
				}
				must(t, r.Do(ctx, "RESTORE", copyKey, ttl, payload, "REPLACE").Err())
				da, err := r.Do(ctx, "DEBUG", "DIGEST-VALUE", k).Slice()
				must(t, err)
				db, err := r.Do(ctx, "DEBUG", "DIGEST-VALUE", copyKey).Slice()
				must(t, err)
				if da[0] != db[0] {
					t.Errorf("DEBUG DIGEST-VALUE %v, want %v", db, da)
				}
				if _, ok := strs[k]; ok {
					if got, err := r.Get(ctx, copyKey).Result(); err != nil || got != strs[k] {
						t.Errorf("GET %q (%v), want %q", got, err, strs[k])
					}
					return
				}
				compareStreams(t, ctx, r, k, copyKey, v)
			})
		}
		must(t, p.Close())
	}
}

// compareStreams compares the streams a and b of r: XINFO STREAM FULL (what a type-15
// payload of RDB 9 lacks, the server derives) and XPENDING of each group.
func compareStreams(t *testing.T, ctx context.Context, r *redis.Client, a, b string, v int) {
	t.Helper()
	ia, err := r.XInfoStreamFull(ctx, a, 0).Result()
	must(t, err)
	ib, err := r.XInfoStreamFull(ctx, b, 0).Result()
	must(t, err)
	ia.RadixTreeKeys, ia.RadixTreeNodes, ib.RadixTreeKeys, ib.RadixTreeNodes = 0, 0, 0, 0 // tombstones take room
	if v == 9 {
		ia.MaxDeletedEntryID, ia.EntriesAdded, ib.MaxDeletedEntryID, ib.EntriesAdded = "", 0, "", 0
		if ia.Length == 0 {
			ia.RecordedFirstEntryID, ib.RecordedFirstEntryID = "", ""
		}
		for i := range ia.Groups {
			ia.Groups[i].EntriesRead, ia.Groups[i].Lag = 0, 0
			ib.Groups[i].EntriesRead, ib.Groups[i].Lag = 0, 0
		}
	}
	if !reflect.DeepEqual(ia, ib) {
		t.Errorf("XINFO STREAM FULL\n%+v\nwant\n%+v", ib, ia)
	}
	for _, g := range ia.Groups {
		pa, err := r.Do(ctx, "XPENDING", a, g.Name, "-", "+", 100).Slice()
		must(t, err)
		pb, err := r.Do(ctx, "XPENDING", b, g.Name, "-", "+", 100).Slice()
		must(t, err)
		if len(pa) != len(pb) {
			t.Errorf("group %s: XPENDING %v, want %v", g.Name, pb, pa)
			continue
		}
		for i := range pa { // id, consumer, idle (moves with the clock), deliveries
			ea, eb := pa[i].([]any), pb[i].([]any)
			if ea[0] != eb[0] || ea[1] != eb[1] || ea[3] != eb[3] {
				t.Errorf("group %s: XPENDING %v, want %v", g.Name, pb, pa)
			}
		}
	}
}

// TestPayloadRefused: the server refuses a payload whose checksum or version is wrong, and
// CheckPayload refuses it as the server does.
func TestPayloadRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := startRedis(t, ctx, 10, nil)
	good := func(v int) []byte {
		p, err := NewPayloadWriter(Options{RDBVersion: v}, 0)
		must(t, err)
		must(t, sinkString(p.Writer, []byte("k"), []byte("value"), 0))
		b, err := p.Payload()
		must(t, err)
		return append([]byte(nil), b...)
	}
	for _, c := range []struct {
		name    string
		payload []byte
		server  string // the server's refusal, "" when it takes the payload
	}{
		{"good", good(10), ""},
		{"older version", good(9), ""},
		{"checksum", func() []byte { b := good(10); b[len(b)-1] ^= 1; return b }(), "checksum"},
		{"object", func() []byte { b := good(10); b[2] ^= 1; return b }(), "checksum"},
		{"newer version", good(11), "checksum"},
		{"short", []byte("\x00\x01k\x0a\x00"), "checksum"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := r.Do(ctx, "RESTORE", "restored:"+c.name, 0, c.payload).Err()
			_, check := rdb.CheckPayload(c.payload, 10)
			switch {
			case c.server == "" && (err != nil || check != nil):
				t.Fatalf("RESTORE: %v; CheckPayload: %v", err, check)
			case c.server != "" && (err == nil || !strings.Contains(err.Error(), c.server)):
				t.Fatalf("RESTORE: %v, want an error about the %s", err, c.server)
			case c.server != "" && !errors.Is(check, rdb.ErrPayload):
				t.Fatalf("CheckPayload: %v, want ErrPayload", check)
			}
		})
	}
}

// TestPayloadBound: a record past the bound is ErrPayloadTooLarge, and the writer takes the
// next record.
func TestPayloadBound(t *testing.T) {
	p, err := NewPayloadWriter(Options{DisableCompression: true}, 100)
	must(t, err)
	defer p.Close()
	for _, c := range []struct {
		size int
		ok   bool
	}{{10, true}, {200, false}, {87, true}, {88, false}, {1 << 20, false}, {0, true}} {
		must(t, sinkString(p.Writer, []byte("k"), []byte(strings.Repeat("x", c.size)), 0))
		b, err := p.Payload()
		if c.ok != (err == nil) || (!c.ok && !errors.Is(err, ErrPayloadTooLarge)) || (c.ok && len(b) > 100) {
			t.Errorf("%d bytes: payload of %d bytes, %v", c.size, len(b), err)
		}
	}
}
