package encoder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/model"
	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/server"
)

// startRedis starts redis-server, debug commands on, on the file rdbgen writes with write (nil:
// an empty file) at RDB version v.
func startRedis(t *testing.T, ctx context.Context, v int, write func(w *Writer) error, args ...string) *redis.Client {
	t.Helper()
	redistest.RedisServer(t)
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	must(t, err)
	w, err := NewWriter(f, Options{RDBVersion: v})
	must(t, err)
	must(t, w.BeginDB(0, DBInfo{}))
	if write != nil {
		must(t, write(w))
	}
	must(t, w.Close())
	must(t, f.Close())
	inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess,
		Args: append([]string{"--enable-debug-command", "yes"}, args...)})
	if err != nil {
		t.Fatalf("RDB %d: %v", v, err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	return inst.Client()
}

// streamCommands build the streams of TestStreamsLikeRedis; the keys in samePacking have no
// deleted entries, so the server packs them as rdbgen does.
var (
	streamCommands = func() [][]any {
		var cmds [][]any
		add := func(args ...any) { cmds = append(cmds, args) }
		// The notes' stream, one pending entry.
		add("XADD", "s1", "1-1", "a", "1", "b", "x")
		add("XADD", "s1", "2-1", "a", "2", "b", "y")
		add("XADD", "s1", "3-1", "a", "3", "b", "z")
		add("XGROUP", "CREATE", "s1", "g", "0")
		add("XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "s1", ">")
		// Three nodes by entry count; fields that change; integers; negative seq diffs.
		for i := 1; i <= 250; i++ {
			id := fmt.Sprintf("%d-%d", 1000+i/3, (i%3)*7)
			switch {
			case i%11 == 0:
				add("XADD", "s2", id, "other", strconv.Itoa(-i*1000), "more", "x")
			case i%5 == 0:
				add("XADD", "s2", id, "f", strconv.Itoa(i), "g", "value"+strconv.Itoa(i), "h", "")
			default:
				add("XADD", "s2", id, "f", strconv.Itoa(i*100000), "g", "value"+strconv.Itoa(i))
			}
		}
		// Nodes by bytes, values LZF-compressible and not.
		for i := 1; i <= 12; i++ {
			add("XADD", "s3", fmt.Sprintf("%d-0", 1700000000000+i), "big", strings.Repeat("ab", 500), "rnd", fmt.Sprintf("%x", i*7919*104729))
		}
		// Groups, consumers, acks, an idle consumer, XSETID.
		for i := 1; i <= 20; i++ {
			add("XADD", "s4", fmt.Sprintf("%d-1", i), "n", strconv.Itoa(i))
		}
		add("XGROUP", "CREATE", "s4", "g2", "$")
		add("XGROUP", "CREATE", "s4", "g1", "0")
		add("XGROUP", "CREATE", "s4", "a-group", "5-1")
		add("XREADGROUP", "GROUP", "g1", "alice", "COUNT", "3", "STREAMS", "s4", ">")
		add("XREADGROUP", "GROUP", "g1", "bob", "COUNT", "2", "STREAMS", "s4", ">")
		add("XREADGROUP", "GROUP", "g1", "alice", "COUNT", "2", "STREAMS", "s4", ">")
		add("XACK", "s4", "g1", "2-1", "4-1")
		add("XCLAIM", "s4", "g1", "bob", "0", "1-1")
		add("XGROUP", "CREATECONSUMER", "s4", "g1", "zed")
		add("XREADGROUP", "GROUP", "a-group", "carol", "COUNT", "1", "STREAMS", "s4", ">")
		add("XSETID", "s4", "99-0", "ENTRIESADDED", "25", "MAXDELETEDID", "50-0")
		// Deleted entries: max deleted id, first id past a deleted head.
		for i := 1; i <= 30; i++ {
			add("XADD", "s5", fmt.Sprintf("5-%d", i), "k", "v"+strconv.Itoa(i))
		}
		add("XDEL", "s5", "5-1", "5-2", "5-17")
		// An empty stream with history, and one with an expiry.
		add("XADD", "s6", "5-5", "f", "v")
		add("XDEL", "s6", "5-5")
		add("XADD", "s7", "*", "f", "v")
		add("PEXPIREAT", "s7", "4102444800000")
		return cmds
	}()
	samePacking = []string{"s1", "s2", "s3", "s4", "s6", "s7"}
	streamKeys  = []string{"s1", "s2", "s3", "s4", "s5", "s6", "s7"}
)

// parseID parses "ms-seq".
func parseID(t *testing.T, s string) StreamID {
	t.Helper()
	ms, seq, ok := strings.Cut(s, "-")
	a, err1 := strconv.ParseUint(ms, 10, 64)
	b, err2 := strconv.ParseUint(seq, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("bad stream id %q", s)
	}
	return StreamID{Ms: a, Seq: b}
}

// copyStream writes key as the server r holds it, read with XRANGE, XINFO STREAM FULL and
// PEXPIRETIME.
func copyStream(t *testing.T, ctx context.Context, r *redis.Client, w *Writer, key string) error {
	t.Helper()
	exp, err := r.PExpireTime(ctx, key).Result()
	must(t, err)
	at := int64(0)
	if exp > 0 {
		at = exp.Milliseconds()
	}
	msgs, err := r.XRange(ctx, key, "-", "+").Result()
	must(t, err)
	info, err := r.XInfoStreamFull(ctx, key, 0).Result()
	must(t, err)
	if err := sinkStream(w, []byte(key), at); err != nil {
		return err
	}
	// XRANGE replies with a map: the raw reply keeps the field order.
	raw, err := r.Do(ctx, "XRANGE", key, "-", "+").Slice()
	must(t, err)
	for i, m := range raw {
		e := m.([]any)
		kv := e[1].([]any)
		fields := make([][]byte, len(kv))
		for j, f := range kv {
			fields[j] = []byte(f.(string))
		}
		if e[0].(string) != msgs[i].ID {
			t.Fatalf("XRANGE disagrees with itself")
		}
		if err := sinkEntry(w, parseID(t, msgs[i].ID), fields); err != nil {
			return err
		}
	}
	meta := StreamMeta{Length: uint64(info.Length), LastID: parseID(t, info.LastGeneratedID),
		FirstID: parseID(t, info.RecordedFirstEntryID), MaxDeletedID: parseID(t, info.MaxDeletedEntryID),
		EntriesAdded: uint64(info.EntriesAdded)}
	// go-redis reads an unknown entries-read (nil) as 0: the raw XINFO GROUPS tells.
	entriesRead := map[string]int64{}
	groups, err := r.Do(ctx, "XINFO", "GROUPS", key).Slice()
	must(t, err)
	for _, g := range groups {
		kv := g.(map[any]any) // RESP3
		read, ok := kv["entries-read"].(int64)
		if !ok {
			read = -1
		}
		entriesRead[kv["name"].(string)] = read
	}
	var sgs []StreamGroup
	for _, g := range info.Groups {
		sg := StreamGroup{Name: []byte(g.Name), LastID: parseID(t, g.LastDeliveredID), EntriesRead: entriesRead[g.Name]}
		for _, p := range g.Pending {
			sg.Pending = append(sg.Pending, StreamPending{ID: parseID(t, p.ID), DeliveryTimeMS: p.DeliveryTime.UnixMilli(), DeliveryCount: uint64(p.DeliveryCount)})
		}
		for _, c := range g.Consumers {
			sc := StreamConsumer{Name: []byte(c.Name), SeenTimeMS: c.SeenTime.UnixMilli(), ActiveTimeMS: -1}
			for _, p := range c.Pending {
				sc.Pending = append(sc.Pending, parseID(t, p.ID))
			}
			sg.Consumers = append(sg.Consumers, sc)
		}
		sgs = append(sgs, sg)
	}
	return sinkEndStream(w, meta, sgs...)
}

// TestStreamsLikeRedis builds streams on redis-server 7.0 with its own commands, writes what
// it holds with rdbgen at RDB 9 and 10, starts a server on each file and compares: DEBUG
// DIGEST (which covers the entries only), XINFO STREAM FULL (metadata, groups, PEL and
// consumers), the number of nodes, and at RDB 10, where the server keeps rdbgen's nodes as
// they are, DUMP of each key whose packing has no deleted entries.
func TestStreamsLikeRedis(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	a := startRedis(t, ctx, 10, nil)
	for _, c := range streamCommands {
		if err := a.Do(ctx, c...).Err(); err != nil && err != redis.Nil {
			t.Fatalf("%v: %v", c, err)
		}
	}
	digestA, err := a.Do(ctx, "DEBUG", "DIGEST").Text()
	must(t, err)
	for _, v := range []int{9, 10} {
		t.Run("RDB "+strconv.Itoa(v), func(t *testing.T) {
			b := startRedis(t, ctx, v, func(w *Writer) error {
				for _, k := range streamKeys {
					if err := copyStream(t, ctx, a, w, k); err != nil {
						return err
					}
				}
				return nil
			})
			if d, err := b.Do(ctx, "DEBUG", "DIGEST").Text(); err != nil || d != digestA {
				t.Errorf("DEBUG DIGEST %s (%v), want %s", d, err, digestA)
			}
			for _, k := range streamKeys {
				ia, err := a.XInfoStreamFull(ctx, k, 0).Result()
				must(t, err)
				ib, err := b.XInfoStreamFull(ctx, k, 0).Result()
				must(t, err)
				if v == 9 {
					// Type 15 lacks first id, max deleted id, entries added and entries read:
					// the server derives them.
					ia.MaxDeletedEntryID, ia.EntriesAdded, ib.MaxDeletedEntryID, ib.EntriesAdded = "", 0, "", 0
					if ia.Length == 0 {
						ia.RecordedFirstEntryID, ib.RecordedFirstEntryID = "", "" // 7.0 derives the maximal id
					}
					for i := range ia.Groups {
						ia.Groups[i].EntriesRead, ia.Groups[i].Lag = 0, 0
						ib.Groups[i].EntriesRead, ib.Groups[i].Lag = 0, 0
					}
				}
				if k == "s5" {
					ia.RadixTreeNodes, ib.RadixTreeNodes = 0, 0 // tombstones take room
				}
				if !reflect.DeepEqual(ia, ib) {
					t.Errorf("%s: XINFO STREAM FULL\n%+v\nwant\n%+v", k, ib, ia)
				}
			}
			if v != 10 {
				return
			}
			for _, k := range samePacking {
				da, err := a.Dump(ctx, k).Result()
				must(t, err)
				db, err := b.Dump(ctx, k).Result()
				must(t, err)
				if da != db {
					t.Errorf("%s: DUMP differs:\n%x\nwant\n%x", k, db, da)
				}
			}
		})
	}
}

// TestStreamsParse reads rdbgen's streams back with the hdt3213 parser.
func TestStreamsParse(t *testing.T) {
	for _, v := range []int{9, 10, 11} {
		file := recordFile(t, v, func(w *Writer) error {
			must(t, sinkStream(w, []byte("s"), 0))
			for i := 1; i <= 150; i++ {
				must(t, sinkEntry(w, StreamID{Ms: uint64(i), Seq: 0}, strs("f", strconv.Itoa(i))))
			}
			return sinkEndStream(w, StreamMeta{}, StreamGroup{Name: []byte("g"), LastID: StreamID{Ms: 2, Seq: 0}, EntriesRead: 2,
				Pending:   []StreamPending{{ID: StreamID{Ms: 2, Seq: 0}, DeliveryTimeMS: 5, DeliveryCount: 1}},
				Consumers: []StreamConsumer{{Name: []byte("c"), SeenTimeMS: 5, ActiveTimeMS: 5, Pending: []StreamID{{Ms: 2, Seq: 0}}}}})
		})
		o := parseObjects(t, file)["s"].(*model.StreamObject)
		n := 0
		for _, e := range o.Entries {
			for _, m := range e.Msgs {
				n++
				if m.Id.Ms != uint64(n) || m.Fields["f"] != strconv.Itoa(n) {
					t.Fatalf("RDB %d: message %d is %v %v", v, n, m.Id, m.Fields)
				}
			}
		}
		if n != 150 || len(o.Entries) != 2 || len(o.Groups) != 1 || len(o.Groups[0].Consumers) != 1 {
			t.Fatalf("RDB %d: %d messages in %d nodes, groups %v", v, n, len(o.Entries), o.Groups)
		}
	}
}

// recordFile writes one database of records with write in a file of RDB version v.
func recordFile(t testing.TB, v int, write func(w *Writer) error) []byte {
	t.Helper()
	var buf strings.Builder
	w, err := NewWriter(&buf, Options{RDBVersion: v, CreatedAt: fixedTime, ToolVersion: goldenToolVersion})
	must(t, err)
	must(t, w.BeginDB(0, DBInfo{}))
	must(t, write(w))
	must(t, w.Close())
	return []byte(buf.String())
}

// TestLongListLikeRedis writes a list of 400,000 elements (3 MB of nodes, spooled) and
// compares it with the same list pushed into redis-server 7.0: the same content (DEBUG
// DIGEST-VALUE), the same number of quicklist nodes (DEBUG OBJECT), and a record at most 5%
// larger than the server's own serialization of it (DUMP, the bytes SAVE writes).
func TestLongListLikeRedis(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const n = 400_000
	element := func(i int) string {
		if i%3 == 0 {
			return strconv.Itoa(i * 7)
		}
		return "element:" + strconv.Itoa(i) + strings.Repeat("x", i%40)
	}
	write := func(w *Writer) error {
		if err := sinkOpen(w, tList, []byte("list"), n, 0); err != nil {
			return err
		}
		for i := range n {
			if err := sinkAdd(w, []byte(element(i))); err != nil {
				return err
			}
		}
		return sinkEnd(w)
	}
	record := recordBytes(t, 10, Options{}, write)
	ours := startRedis(t, ctx, 10, write)
	theirs := startRedis(t, ctx, 10, nil)
	batch := make([]any, 0, 10_000)
	for i := range n {
		batch = append(batch, element(i))
		if len(batch) == cap(batch) {
			must(t, theirs.RPush(ctx, "list", batch...).Err())
			batch = batch[:0]
		}
	}
	da, err := theirs.Do(ctx, "DEBUG", "DIGEST-VALUE", "list").Slice()
	must(t, err)
	db, err := ours.Do(ctx, "DEBUG", "DIGEST-VALUE", "list").Slice()
	must(t, err)
	if da[0] != db[0] {
		t.Fatalf("DEBUG DIGEST-VALUE %s, want %s", db, da)
	}
	nodes := func(r *redis.Client) string {
		s, err := r.DebugObject(ctx, "list").Result()
		must(t, err)
		for _, f := range strings.Fields(s) {
			if strings.HasPrefix(f, "ql_nodes:") {
				return f
			}
		}
		t.Fatalf("DEBUG OBJECT without ql_nodes: %s", s)
		return ""
	}
	if a, b := nodes(theirs), nodes(ours); a != b {
		t.Errorf("%s, Redis builds %s", b, a)
	}
	dump, err := theirs.Dump(ctx, "list").Result()
	must(t, err)
	server := len(dump) - 1 - 10 + len("\x12\x04list") // the record: type, key, object
	t.Logf("list of %d elements: rdbgen %d bytes, redis-server %d", n, len(record), server)
	if float64(len(record)) > 1.05*float64(server) {
		t.Errorf("rdbgen writes %d bytes, redis-server %d: more than 5%% larger", len(record), server)
	}
}
