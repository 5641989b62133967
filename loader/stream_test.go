package loader_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// records is a Source of records of db 0.
type records []record.Record

func (rs records) WriteTo(_ context.Context, sink record.Sink) error {
	if err := sink.BeginDB(0, record.Counts{}); err != nil {
		return err
	}
	for i := range rs {
		if err := rs[i].WriteTo(sink); err != nil {
			return err
		}
	}
	return nil
}

func (rs records) Len() uint64 { return uint64(len(rs)) }

// buildStreams makes streams on the server at addr with the server's own commands: entries
// deleted, groups with pending entries of several consumers, a consumer without any, a
// stream emptied, a stream that expires.
func buildStreams(t *testing.T, addr string) {
	t.Helper()
	c := servertest.Client(t, addr, 0)
	ctx := t.Context()
	for _, cmd := range [][]any{
		{"XADD", "s", "1-1", "a", "1"},
		{"XADD", "s", "1-2", "b", "2", "c", "3"},
		{"XADD", "s", "2-0", "d", "4"},
		{"XADD", "s", "3-0", "e", "5", "e2", ""},
		{"XADD", "s", "5-0", "f", "6"},
		{"XDEL", "s", "1-2"},
		{"XGROUP", "CREATE", "s", "g1", "0"},
		{"XREADGROUP", "GROUP", "g1", "alice", "COUNT", "2", "STREAMS", "s", ">"},
		{"XREADGROUP", "GROUP", "g1", "bob", "COUNT", "1", "STREAMS", "s", ">"},
		{"XCLAIM", "s", "g1", "bob", "0", "1-1", "RETRYCOUNT", "4", "TIME", "1700000000000"},
		{"XGROUP", "CREATECONSUMER", "s", "g1", "carol"},
		{"XGROUP", "CREATE", "s", "g2", "$"},
		{"XGROUP", "CREATE", "s", "g3", "2-0"},
		{"XADD", "s", "7-0", "g", "7"},
		{"XDEL", "s", "7-0"},
		{"XADD", "clean", "1-0", "a", "1"},
		{"XADD", "clean", "2-0", "a", "2"},
		{"XADD", "clean", "3-0", "a", "3"},
		{"XGROUP", "CREATE", "clean", "reader", "0"},
		{"XREADGROUP", "GROUP", "reader", "r1", "COUNT", "2", "STREAMS", "clean", ">"},
		{"XGROUP", "CREATE", "clean", "late", "$"},
		{"XADD", "empty", "9-3", "x", "y"},
		{"XDEL", "empty", "9-3"},
		{"XADD", "ttl", "1-0", "k", "v"},
		{"PEXPIREAT", "ttl", time.Now().Add(time.Hour).UnixMilli()},
	} {
		if err := c.Do(ctx, cmd...).Err(); err != nil {
			t.Fatalf("%v: %v", cmd, err)
		}
	}
}

// parseID parses "ms-seq".
func parseID(t *testing.T, s string) record.StreamID {
	t.Helper()
	ms, seq, _ := strings.Cut(s, "-")
	a, err1 := strconv.ParseUint(ms, 10, 64)
	b, err2 := strconv.ParseUint(seq, 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("id %q: %v", s, err)
	}
	return record.StreamID{Ms: a, Seq: b}
}

// readStream reads the stream key of the server at addr into a record, with XRANGE (which
// keeps the order of fields) and XINFO STREAM FULL.
func readStream(t *testing.T, c *redis.Client, key string) record.Record {
	t.Helper()
	ctx := t.Context()
	r := record.Record{Key: []byte(key), Type: record.Stream}
	entries, err := c.Do(ctx, "XRANGE", key, "-", "+").Slice()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		e := e.([]any)
		var fields [][]byte
		for _, f := range e[1].([]any) {
			fields = append(fields, []byte(f.(string)))
		}
		r.Members = append(r.Members, record.Member{ID: parseID(t, e[0].(string)), Fields: fields})
	}
	info, err := c.XInfoStreamFull(ctx, key, 0).Result()
	if err != nil {
		t.Fatal(err)
	}
	r.Stream.Meta = record.StreamMeta{Length: uint64(info.Length), LastID: parseID(t, info.LastGeneratedID),
		MaxDeletedID: parseID(t, info.MaxDeletedEntryID), EntriesAdded: uint64(info.EntriesAdded)}
	if len(r.Members) > 0 {
		r.Stream.Meta.FirstID = r.Members[0].ID
	}
	read := groupsEntriesRead(t, c, key)
	for _, g := range info.Groups {
		sg := record.StreamGroup{Name: []byte(g.Name), LastID: parseID(t, g.LastDeliveredID), EntriesRead: read[g.Name][0]}
		for _, p := range g.Pending {
			sg.Pending = append(sg.Pending, record.StreamPending{ID: parseID(t, p.ID), DeliveryTimeMS: p.DeliveryTime.UnixMilli(), DeliveryCount: uint64(p.DeliveryCount)})
		}
		for _, k := range g.Consumers {
			sc := record.StreamConsumer{Name: []byte(k.Name)} // seen and active times are the load's
			for _, p := range k.Pending {
				sc.Pending = append(sc.Pending, parseID(t, p.ID))
			}
			sg.Consumers = append(sg.Consumers, sc)
		}
		r.Stream.Groups = append(r.Stream.Groups, sg)
	}
	if ms := c.PExpireTime(ctx, key).Val(); ms > 0 {
		r.ExpireAtMS = ms.Milliseconds()
	}
	return r
}

// groupsEntriesRead returns the entries-read of each group of the stream key, from the
// raw reply of XINFO STREAM FULL, -1 when it is nil; the lag, which follows from it and the
// stream's metadata, goes with it as a second check.
func groupsEntriesRead(t *testing.T, c *redis.Client, key string) map[string][2]int64 {
	t.Helper()
	raw, err := c.Do(t.Context(), "XINFO", "STREAM", key, "FULL").Result()
	if err != nil {
		t.Fatal(err)
	}
	read := map[string][2]int64{}
	groups, _ := pairs(raw)["groups"].([]any)
	for _, g := range groups {
		g := pairs(g)
		n, lag := int64(-1), int64(-1)
		if v, ok := g["entries-read"].(int64); ok {
			n = v
		}
		if v, ok := g["lag"].(int64); ok {
			lag = v
		}
		read[g["name"].(string)] = [2]int64{n, lag}
	}
	return read
}

// pairs returns the fields of a reply that is a map in RESP3 and a flat array of names
// and values in RESP2.
func pairs(v any) map[string]any {
	m := map[string]any{}
	switch v := v.(type) {
	case map[any]any:
		for k, x := range v {
			m[fmt.Sprint(k)] = x
		}
	case []any:
		for i := 0; i+1 < len(v); i += 2 {
			m[fmt.Sprint(v[i])] = v[i+1]
		}
	}
	return m
}

// TestStreamsOnline rebuilds streams that a server made with its own commands: it reads
// them into records, loads the records into another server by every method and by
// redis-cli --pipe, and checks that DEBUG DIGEST, the entries, the metadata, the groups,
// their pending entries and their consumers are the same.
func TestStreamsOnline(t *testing.T) {
	native := servertest.StartEmpty(t, debugArgs...)
	buildStreams(t, native.Addr)
	nc := servertest.Client(t, native.Addr, 0)
	var src records
	for _, key := range []string{"s", "clean", "empty", "ttl"} {
		src = append(src, readStream(t, nc, key))
	}
	want := digest(t, native.Addr)
	if got := groupsEntriesRead(t, nc, "clean"); got["reader"] != [2]int64{2, 1} {
		t.Fatalf("entries-read and lag of the stream clean: %v", got)
	}

	online := servertest.StartEmpty(t, debugArgs...)
	oc := servertest.Client(t, online.Addr, 0)
	check := func(how string) {
		t.Helper()
		if got := digest(t, online.Addr); got != want {
			t.Errorf("%s: digest %s, want %s", how, got, want)
		}
		for _, r := range src {
			if got := readStream(t, oc, string(r.Key)); !reflect.DeepEqual(got, r) {
				t.Errorf("%s: stream %s\n got %+v\nwant %+v", how, r.Key, got, r)
			}
			got, want := groupsEntriesRead(t, oc, string(r.Key)), groupsEntriesRead(t, nc, string(r.Key))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: stream %s: entries-read and lag of the groups %v, want %v", how, r.Key, got, want)
			}
		}
	}
	for _, m := range loader.Methods() {
		flush(t, online.Addr)
		res, err := loader.Load(t.Context(), src, loader.Options{Addr: online.Addr, Method: m})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if res.Keys != 4 || res.Expires != 1 {
			t.Errorf("%s: %+v, want 4 keys, 1 expiring", m, res.Counts)
		}
		check(string(m))
	}
	flush(t, online.Addr)
	servertest.Pipe(t, online.Addr, writeRESP(t, src, resp.Options{Server: resp.Version{Major: 7, Minor: 0}}))
	check("redis-cli --pipe")
}

// TestFieldTTLNeedsRedis74: loading a hash with field TTLs into Redis 7.0 fails before
// anything is sent, with an error that names the key and the version.
func TestFieldTTLNeedsRedis74(t *testing.T) {
	inst := servertest.StartEmpty(t)
	src := records{{Key: []byte("h"), Type: record.Hash, Members: []record.Member{
		{Name: []byte("f"), Value: []byte("v"), ExpireAtMS: time.Now().Add(time.Hour).UnixMilli()}}}}
	for _, m := range loader.Methods() {
		_, err := loader.Load(t.Context(), src, loader.Options{Addr: inst.Addr, Method: m})
		if !errors.Is(err, resp.ErrServerTooOld) || !strings.Contains(err.Error(), `write key "h": hash field TTLs need Redis 7.4 or later, the server is 7.0`) {
			t.Fatalf("%s: %v", m, err)
		}
	}
	if n := servertest.Client(t, inst.Addr, 0).DBSize(t.Context()).Val(); n != 0 {
		t.Fatalf("DBSIZE %d after refused loads", n)
	}
}
