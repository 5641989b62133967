package export_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/export"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// importJSON reads data with rdbgen's importer into sink.
func importJSON(t *testing.T, data []byte, sink record.Sink) importer.Stats {
	t.Helper()
	open := func() (importer.Reader, error) { return importer.NewJSONReader(bytes.NewReader(data)), nil }
	stats, err := importer.Copy(context.Background(), sink, open, importer.Options{})
	if err != nil {
		t.Fatalf("import: %v\n%.2000s", err, data)
	}
	return stats
}

// hard are records whose every byte and field an export must keep.
var hard = record.Records{
	{Key: []byte("\xff\xfe bin\x00key\r\n\"\\"), Type: record.String, Value: []byte("é\xc3(\xed\xa0\x80€\U0001F600\x80"), ExpireAtMS: 1},
	{Key: []byte("far"), Type: record.String, Value: []byte("x"), ExpireAtMS: math.MaxInt64},
	{Key: []byte("list"), Type: record.List, Members: []record.Member{{Name: []byte("\x80")}, {Name: []byte("")}, {Name: []byte("\x80")}}},
	{Key: []byte("set"), Type: record.Set, Members: []record.Member{{Name: []byte("\xc0\xaf")}, {Name: []byte("ok")}}},
	{Key: []byte("zset"), Type: record.ZSet, Members: []record.Member{
		{Name: []byte("inf"), Score: math.Inf(1)}, {Name: []byte("-inf"), Score: math.Inf(-1)}, {Name: []byte("-0"), Score: math.Copysign(0, -1)},
		{Name: []byte("tiny"), Score: math.SmallestNonzeroFloat64}, {Name: []byte("third"), Score: 1.0 / 3}}},
	{DB: 3, Key: []byte("hash"), Type: record.Hash, ExpireAtMS: 4102444800123, Members: []record.Member{
		{Name: []byte("f\xff"), Value: []byte("v\xfe"), ExpireAtMS: 4102444800001}, {Name: []byte("g"), Value: []byte("")}, {Name: []byte("h"), Value: []byte("1"), ExpireAtMS: maxMS}}},
	{DB: 3, Key: []byte("stream"), Type: record.Stream,
		Members: []record.Member{
			{ID: record.StreamID{Ms: 1, Seq: 1}, Fields: [][]byte{[]byte("a"), []byte("1"), []byte("b\xff"), []byte("2")}},
			{ID: record.StreamID{Ms: 1, Seq: 2}, Fields: [][]byte{[]byte("b\xff"), []byte("3"), []byte("a"), []byte("4")}},
			{ID: record.StreamID{Ms: 2, Seq: 0}, Fields: [][]byte{[]byte("c"), []byte("5"), []byte("c"), []byte("6")}},
			{ID: record.StreamID{Ms: 2, Seq: 1}, Fields: [][]byte{[]byte("c"), []byte("7"), []byte("c"), []byte("8")}},
		},
		Stream: record.StreamTail{
			Meta: record.StreamMeta{Length: 4, LastID: record.StreamID{Ms: 9, Seq: 9}, FirstID: record.StreamID{Ms: 1, Seq: 1},
				MaxDeletedID: record.StreamID{Ms: 3, Seq: 0}, EntriesAdded: 10},
			Groups: []record.StreamGroup{
				{Name: []byte("g\xff"), LastID: record.StreamID{Ms: 1, Seq: 2}, EntriesRead: -1,
					Pending: []record.StreamPending{{ID: record.StreamID{Ms: 1, Seq: 1}, DeliveryTimeMS: 1000, DeliveryCount: 2},
						{ID: record.StreamID{Ms: 1, Seq: 2}, DeliveryTimeMS: 1001, DeliveryCount: 1}},
					Consumers: []record.StreamConsumer{
						{Name: []byte("c"), SeenTimeMS: 1000, ActiveTimeMS: -1, Pending: []record.StreamID{{Ms: 1, Seq: 1}}},
						{Name: []byte("d"), SeenTimeMS: 1001, ActiveTimeMS: 999, Pending: []record.StreamID{{Ms: 1, Seq: 2}}},
						{Name: []byte("idle"), SeenTimeMS: 7, ActiveTimeMS: 8}}},
				{Name: []byte("h"), LastID: record.StreamID{Ms: 2, Seq: 1}, EntriesRead: 4},
			}}},
	// A module value: UINT 7, STRING "h\xff", EOF, as a module saves it.
	{DB: 3, Key: []byte("mod\xff"), Type: record.Module, ModuleID: moduleID("ReJSON-RL", 3), Value: []byte{2, 7, 5, 2, 'h', 0xff, 0}, ExpireAtMS: 4102444800123},
}

// moduleAux is module AUX data saved before and after the keyspace.
var moduleAux = []record.ModuleAux{
	{ModuleID: moduleID("ft-index0", 1), When: record.ModuleAuxBefore, Value: []byte{5, 3, 'i', 'd', 'x', 0}},
	{ModuleID: moduleID("ft-index0", 1), When: record.ModuleAuxAfter, Value: []byte{1, 0x3f, 0}},
}

// moduleID is record.ModuleID of a good name.
func moduleID(name string, encver uint64) uint64 {
	id, err := record.ModuleID(name, encver)
	if err != nil {
		panic(err)
	}
	return id
}

// writeModuleAux writes moduleAux to s.
func writeModuleAux(s record.Sink) error {
	for i := range moduleAux {
		if err := s.WriteModuleAux(&moduleAux[i]); err != nil {
			return err
		}
	}
	return nil
}

// maxMS is the last ms an RFC 3339 time can write (the next is written as a number).
const maxMS = 253402300799999

// TestRoundTrip: what export writes, in either JSON format, import reads back as the same
// records and libraries, byte for byte.
func TestRoundTrip(t *testing.T) {
	libs := [][]byte{[]byte("#!lua name=mylib\nredis.register_function('f', function() return '\xff' end)\n")}
	for _, f := range []export.Format{export.FormatJSON, export.FormatJSONL} {
		t.Run(string(f), func(t *testing.T) {
			var out bytes.Buffer
			w, err := export.NewWriter(&out, export.Options{Format: f})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range libs {
				if err := w.WriteFunction(l); err != nil {
					t.Fatal(err)
				}
			}
			if err := writeModuleAux(w); err != nil {
				t.Fatal(err)
			}
			if err := hard.WriteTo(context.Background(), w); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			var got record.Recorder
			stats := importJSON(t, out.Bytes(), &got)
			if stats.Functions != 1 || !reflect.DeepEqual(got.Functions, libs) {
				t.Errorf("libraries %q, want %q", got.Functions, libs)
			}
			if stats.ModuleAux != 2 || !reflect.DeepEqual(got.ModuleAux, moduleAux) {
				t.Errorf("module AUX %+v, want %+v", got.ModuleAux, moduleAux)
			}
			if len(got.Records) != len(hard) {
				t.Fatalf("%d records, want %d", len(got.Records), len(hard))
			}
			for i := range hard {
				if g, w := fmt.Sprintf("%+v", got.Records[i]), fmt.Sprintf("%+v", hard[i]); g != w {
					t.Errorf("record %d:\n got %s\nwant %s", i, g, w)
				}
			}
		})
	}
}

// server starts a redis-server on a copy of dump (DEBUG enabled, its directory dir, where
// SAVE writes dir/dump.rdb) and returns a client of it.
func server(t *testing.T, dump string) (c *redis.Client, dir string) {
	t.Helper()
	dir = t.TempDir()
	data, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dump.rdb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "redis.sock")
	cmd := exec.Command(redistest.RedisServer(t), "--port", "0", "--unixsocket", sock, "--dir", dir,
		"--save", "", "--appendonly", "no", "--enable-debug-command", "yes", "--logfile", filepath.Join(dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	c = redis.NewClient(&redis.Options{Network: "unix", Addr: sock, Protocol: 2})
	t.Cleanup(func() { c.Close() })
	for tries := 0; c.Ping(t.Context()).Err() != nil; tries++ {
		if tries > 500 {
			log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
			t.Fatalf("redis-server on %s does not answer:\n%s", dump, log)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return c, dir
}

// state is what a server holds as its commands tell: DEBUG DIGEST, FUNCTION LIST WITHCODE,
// and, for every stream of every db, XINFO STREAM FULL without the radix tree's size (the
// server's layout, as OBJECT ENCODING) and XPENDING.
func state(t *testing.T, c *redis.Client) map[string]any {
	t.Helper()
	ctx := t.Context()
	st := map[string]any{}
	do := func(args ...any) any {
		v, err := c.Do(ctx, args...).Result()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return v
	}
	st["DEBUG DIGEST"] = do("DEBUG", "DIGEST")
	var libs []string // each library with its functions in name order, in name order
	for _, l := range do("FUNCTION", "LIST", "WITHCODE").([]any) {
		lib := l.([]any)
		for i := 0; i+1 < len(lib); i += 2 {
			if fns, ok := lib[i+1].([]any); ok && lib[i] == "functions" {
				slices.SortFunc(fns, func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
			}
		}
		libs = append(libs, fmt.Sprint(lib))
	}
	slices.Sort(libs)
	st["FUNCTION LIST"] = libs
	for db := range 16 {
		do("SELECT", db)
		for _, k := range do("KEYS", "*").([]any) {
			if do("TYPE", k) != "stream" {
				continue
			}
			info := do("XINFO", "STREAM", k, "FULL").([]any)
			for i := 0; i+1 < len(info); i += 2 {
				if n := info[i]; n == "radix-tree-keys" || n == "radix-tree-nodes" {
					info[i+1] = nil
				}
			}
			st[fmt.Sprintf("%d/%s XINFO STREAM FULL", db, k)] = info
			for _, g := range do("XINFO", "GROUPS", k).([]any) {
				name := g.([]any)[1]
				// Each entry: id, consumer, idle time (the time since its delivery, which
				// XINFO STREAM FULL holds), deliveries.
				var pel []any
				for _, e := range do("XPENDING", k, name, "-", "+", 1000).([]any) {
					e := e.([]any)
					pel = append(pel, []any{e[0], e[1], e[3]})
				}
				st[fmt.Sprintf("%d/%s XPENDING %s", db, k, name)] = []any{do("XPENDING", k, name), pel}
			}
		}
	}
	do("SELECT", 0)
	return st
}

// TestServerRoundTrip: a dump a real server wrote, exported (JSON Lines, then JSON) and
// imported into an RDB file, gives a server the state of the original's: DEBUG DIGEST
// (every key, type, value and expiry), FUNCTION LIST WITHCODE, XINFO STREAM FULL (metadata,
// groups, their pending entries and consumers, times included) and XPENDING.
func TestServerRoundTrip(t *testing.T) {
	for _, name := range serverDumps {
		for _, f := range []export.Format{export.FormatJSONL, export.FormatJSON} {
			t.Run(name+" "+string(f), func(t *testing.T) {
				orig, _ := server(t, dumpPath(name))
				want := state(t, orig)
				if len(want) < 5 {
					t.Fatalf("the original holds too little for a test: %v", want)
				}
				data := exportDump(t, dumpPath(name), f)
				out := filepath.Join(t.TempDir(), "back.rdb")
				fh, err := os.Create(out)
				if err != nil {
					t.Fatal(err)
				}
				ew, err := rdbsink.NewWriter(fh, encoder.Options{Target: "redis-7.0"})
				if err != nil {
					t.Fatal(err)
				}
				stats := importJSON(t, data, ew)
				if err := ew.Close(); err != nil {
					t.Fatal(err)
				}
				if err := fh.Close(); err != nil {
					t.Fatal(err)
				}
				if stats.Functions != 2 || stats.Expired == 0 {
					t.Errorf("imported %d libraries and %d keys already expired, want 2 and some", stats.Functions, stats.Expired)
				}
				back, _ := server(t, out)
				got := state(t, back)
				for k := range want {
					if !reflect.DeepEqual(got[k], want[k]) {
						t.Errorf("%s:\n got %.500s\nwant %.500s", k, fmt.Sprint(got[k]), fmt.Sprint(want[k]))
					}
				}
				for k := range got {
					if _, ok := want[k]; !ok {
						t.Errorf("%s: not in the original", k)
					}
				}
			})
		}
	}
}

// TestRDBRoundTrip: an RDB 12 file (hash field TTLs, streams with groups, binary keys, a
// library), exported and imported, is a file that the decoder reads as the same records and
// libraries, and that exported and imported again is written byte for byte the same: checked
// against the reader and the writer, as the local redis-server (7.0) cannot load RDB 12.
func TestRDBRoundTrip(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(src func(record.Sink) error) string {
		path := filepath.Join(t.TempDir(), "dump.rdb")
		fh, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		w, err := rdbsink.NewWriter(fh, encoder.Options{Target: "redis-7.4", CreatedAt: created})
		if err != nil {
			t.Fatal(err)
		}
		if err := src(w); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	read := func(path string) record.Recorder {
		var r record.Recorder
		if err := (decoder.File{Path: path}).WriteTo(context.Background(), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	lib := []byte("#!lua name=mylib\nredis.register_function('f', function() return 1 end)\n")
	first := write(func(s record.Sink) error {
		if err := s.WriteFunction(lib); err != nil {
			return err
		}
		if err := writeModuleAux(s); err != nil {
			return err
		}
		return hard.WriteTo(context.Background(), s)
	})
	want := read(first)
	for _, f := range []export.Format{export.FormatJSON, export.FormatJSONL} {
		second := write(func(s record.Sink) error { importJSON(t, exportDump(t, first, f), s); return nil })
		if got := read(second); !reflect.DeepEqual(got.Records, want.Records) || !reflect.DeepEqual(got.Functions, want.Functions) ||
			len(want.ModuleAux) != 2 || !reflect.DeepEqual(got.ModuleAux, want.ModuleAux) {
			t.Errorf("%s: read back\n%+v\nwant\n%+v", f, got, want)
		}
		third := write(func(s record.Sink) error { importJSON(t, exportDump(t, second, f), s); return nil })
		a, _ := os.ReadFile(second)
		b, _ := os.ReadFile(third)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: written again, the file differs", f)
		}
	}
}
