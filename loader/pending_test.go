package loader_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/resp"
)

// lostPendingDump returns a dump that redis-server 7.0 SAVEd, of streams that commands
// cannot rebuild: "dp" has a group whose consumers alice and bob were delivered entries,
// two of which were then deleted (XDEL), and an idle consumer without pending entries;
// "dpx" is the same with an expiry; "clean" has nothing deleted, so commands rebuild it.
func lostPendingDump(t *testing.T) string {
	t.Helper()
	expireAt := time.Now().Add(time.Hour).UnixMilli()
	return redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		var cmds [][]any
		for _, key := range []string{"dp", "dpx"} {
			cmds = append(cmds,
				[]any{"XADD", key, "1-1", "f", "1"},
				[]any{"XADD", key, "2-1", "f", "2", "g", "x"},
				[]any{"XADD", key, "3-1", "f", "3"},
				[]any{"XADD", key, "4-1", "f", "4"},
				[]any{"XGROUP", "CREATE", key, "g", "0"},
				[]any{"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", key, ">"},
				[]any{"XREADGROUP", "GROUP", "g", "bob", "COUNT", "1", "STREAMS", key, ">"},
				[]any{"XCLAIM", key, "g", "bob", "0", "2-1", "RETRYCOUNT", "4", "TIME", "1700000000000"},
				[]any{"XGROUP", "CREATECONSUMER", key, "g", "idle"},
				[]any{"XGROUP", "CREATE", key, "other", "$"},
				[]any{"XDEL", key, "1-1", "3-1"},
			)
		}
		cmds = append(cmds,
			[]any{"PEXPIREAT", "dpx", expireAt},
			[]any{"XADD", "clean", "1-0", "a", "1"},
			[]any{"XADD", "clean", "2-0", "a", "2"},
			[]any{"XGROUP", "CREATE", "clean", "reader", "0"},
			[]any{"XREADGROUP", "GROUP", "reader", "r1", "COUNT", "1", "STREAMS", "clean", ">"},
			[]any{"SET", "str", "v"},
		)
		for _, cmd := range cmds {
			if err := c.Do(ctx, cmd...).Err(); err != nil {
				return fmt.Errorf("%v: %w", cmd, err)
			}
		}
		return nil
	})
}

// streamView is what a stream holds beyond DEBUG DIGEST: XINFO STREAM FULL, without the
// consumers' seen and active times where commands made the consumers (no command sets
// them), and XPENDING of each group without the idle times (they move with the clock).
func streamView(t *testing.T, c *redis.Client, key string, exactTimes bool) string {
	t.Helper()
	ctx := t.Context()
	info, err := c.XInfoStreamFull(ctx, key, 0).Result()
	if err != nil {
		t.Fatalf("XINFO STREAM %s FULL: %v", key, err)
	}
	info.RadixTreeKeys, info.RadixTreeNodes = 0, 0 // the packing of nodes, not the data
	var pending []string
	for i := range info.Groups {
		g := &info.Groups[i]
		for j := range g.Consumers {
			if !exactTimes {
				g.Consumers[j].SeenTime, g.Consumers[j].ActiveTime = time.Time{}, time.Time{}
			}
			for k := range g.Consumers[j].Pending {
				g.Consumers[j].Pending[k].DeliveryTime = g.Consumers[j].Pending[k].DeliveryTime.UTC()
			}
		}
		for k := range g.Pending {
			g.Pending[k].DeliveryTime = g.Pending[k].DeliveryTime.UTC()
		}
		xp, err := c.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: key, Group: g.Name, Start: "-", End: "+", Count: 100}).Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range xp {
			pending = append(pending, fmt.Sprintf("%s:%s:%s:%d", g.Name, p.ID, p.Consumer, p.RetryCount))
		}
	}
	for i := range info.Entries {
		info.Entries[i].Values = nil // compared by the digest, as a map here
	}
	return fmt.Sprintf("%+v\nXPENDING %v\nPTTL>0 %v", info, pending, c.PTTL(ctx, key).Val() > 0)
}

// TestLostPendingCarried loads a dump whose streams hold pending entries whose entries
// were deleted and a consumer without pending entries, by every method and through
// redis-cli --pipe: the server then holds what a server started on the dump holds (DEBUG
// DIGEST, XINFO STREAM FULL, XPENDING per group), the streams commands cannot rebuild sent
// as RESTORE, with their consumers' times.
func TestLostPendingCarried(t *testing.T) {
	dump := lostPendingDump(t)
	src := decoder.File{Path: dump}
	native := servertest.Start(t, dump, debugArgs...)
	nc := servertest.Client(t, native.Addr, 0)
	want := digest(t, native.Addr)
	keys := map[string]bool{"dp": true, "dpx": true, "clean": false} // exact consumer times
	wantViews := map[string]string{}
	for k, exact := range keys {
		wantViews[k] = streamView(t, nc, k, exact)
	}
	if n := nc.XPending(t.Context(), "dp", "g").Val().Count; n != 3 {
		t.Fatalf("the dump's stream dp has %d pending entries, want 3", n)
	}

	online := servertest.StartEmpty(t, debugArgs...)
	oc := servertest.Client(t, online.Addr, 0)
	check := func(how string) {
		t.Helper()
		if got := digest(t, online.Addr); got != want {
			t.Errorf("%s: DEBUG DIGEST %s, want %s", how, got, want)
		}
		for k, exact := range keys {
			if got := streamView(t, oc, k, exact); got != wantViews[k] {
				t.Errorf("%s: stream %s\n got %s\nwant %s", how, k, got, wantViews[k])
			}
		}
	}
	for _, m := range loader.Methods() {
		flush(t, online.Addr)
		res, err := loader.Load(t.Context(), src, loader.Options{Addr: online.Addr, Method: m})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		want := resp.StreamCounts{Restored: 2, Consumers: 1}
		if m == loader.Restore || m == loader.Auto {
			want = resp.StreamCounts{} // every key goes as RESTORE, none for want of commands
		}
		if res.Streams != want || res.Keys != 4 {
			t.Errorf("%s: %d keys, streams %+v, want 4 keys, %+v", m, res.Keys, res.Streams, want)
		}
		check(string(m))
	}
	flush(t, online.Addr)
	servertest.Pipe(t, online.Addr, writeRESP(t, src, resp.Options{Server: resp.Version{Major: 7, Minor: 0}}))
	check("redis-cli --pipe")

	// Told to go on without them: the pending entries are lost, and counted.
	flush(t, online.Addr)
	res, err := loader.Load(t.Context(), src, loader.Options{Addr: online.Addr, Method: loader.Pipeline, DropLostPending: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := (resp.StreamCounts{LostPending: 4, Consumers: 7}); res.Streams != want {
		t.Errorf("--drop-lost-pending: streams %+v, want %+v", res.Streams, want)
	}
	if n := oc.XPending(t.Context(), "dp", "g").Val().Count; n != 1 {
		t.Errorf("--drop-lost-pending: %d pending entries, want the 1 whose entry is there", n)
	}
}

// TestLostPendingTooLarge: a stream that only RESTORE carries, whose payload passes the
// server's proto-max-bulk-len, stops the load with an error naming the key and the flag.
func TestLostPendingTooLarge(t *testing.T) {
	dump := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		rnd := rand.New(rand.NewPCG(1, 2))
		for i := range 2000 { // 2 MB of random hex, which LZF does not shrink
			b := make([]byte, 512)
			for j := range b {
				b[j] = byte(rnd.Uint32())
			}
			v := hex.EncodeToString(b)
			if err := c.XAdd(ctx, &redis.XAddArgs{Stream: "big", ID: fmt.Sprintf("%d-1", i+1), Values: []any{"v", v}}).Err(); err != nil {
				return err
			}
		}
		for _, cmd := range [][]any{
			{"XGROUP", "CREATE", "big", "g", "0"},
			{"XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "big", ">"},
			{"XDEL", "big", "1-1"},
		} {
			if err := c.Do(ctx, cmd...).Err(); err != nil {
				return err
			}
		}
		return nil
	})
	inst := servertest.StartEmpty(t, "--proto-max-bulk-len", "1mb")
	_, err := loader.Load(t.Context(), decoder.File{Path: dump}, loader.Options{Addr: inst.Addr})
	if !errors.Is(err, resp.ErrLostPending) || !strings.Contains(err.Error(), `write key "big"`) ||
		!strings.Contains(err.Error(), "--drop-lost-pending") || !strings.Contains(err.Error(), "1048576") {
		t.Fatalf("load: %v", err)
	}
	t.Log(err)
	if n := servertest.Client(t, inst.Addr, 0).Exists(t.Context(), "big").Val(); n != 0 {
		t.Errorf("the stream big was left half built")
	}
}
