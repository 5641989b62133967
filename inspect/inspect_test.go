package inspect_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/inspect"
	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// now is the time the golden file is inspected at.
var now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func members(n int, prefix string) []record.Member {
	ms := make([]record.Member, n)
	for i := range ms {
		ms[i] = record.Member{Name: fmt.Appendf(nil, "%s%d", prefix, i), Value: fmt.Appendf(nil, "v%d", i), Score: float64(i)}
	}
	return ms
}

// writeString writes a string into s.
func writeString(s record.Sink, key, value []byte, exp int64) error {
	return s.Begin(&record.Header{Key: key, Type: record.String, Value: value, ExpireAtMS: exp})
}

// sample writes a file of every type and several encodings, in two databases, with
// expiries around now, for target.
func sample(t testing.TB, target string) []byte {
	t.Helper()
	at := func(d time.Duration) int64 { return now.Add(d).UnixMilli() }
	stream := record.Record{Key: []byte("stream"), Type: record.Stream}
	for j := range 5 {
		stream.Members = append(stream.Members, record.Member{ID: record.StreamID{Ms: uint64(1700000000000 + j)}, Fields: [][]byte{[]byte("n"), fmt.Appendf(nil, "%d", j)}})
	}
	stream.Stream.Groups = []record.StreamGroup{{Name: []byte("g"), Consumers: []record.StreamConsumer{{Name: []byte("c")}}}}
	dbs := [][]record.Record{{
		{Key: []byte("int"), Value: []byte("123456")},
		{Key: []byte("short"), Value: []byte("hello"), ExpireAtMS: at(-time.Hour)},
		{Key: []byte("long"), Value: bytes.Repeat([]byte("x"), 300), ExpireAtMS: at(time.Minute)},
		{Key: []byte("hash"), Type: record.Hash, Members: members(5, "f"), ExpireAtMS: at(2 * time.Hour)},
		{Key: []byte("hash-big"), Type: record.Hash, Members: members(600, "f")},
		{Key: []byte("list"), Type: record.List, Members: members(3000, "e")},
		stream,
	}, {
		{Key: []byte("intset"), Type: record.Set, Members: []record.Member{{Name: []byte("1")}, {Name: []byte("70000")}}},
		{Key: []byte("set"), Type: record.Set, Members: members(10, "m"), ExpireAtMS: at(400 * 24 * time.Hour)},
		{Key: []byte("zset"), Type: record.ZSet, Members: members(200, "m")},
		{Key: []byte("ttl-fields"), Type: record.Hash, Members: []record.Member{{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: at(time.Hour)}, {Name: []byte("b"), Value: []byte("2")}}},
	}}
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: target, CreatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	for db, recs := range dbs {
		var c record.Counts
		for _, r := range recs {
			c.Keys++
			if r.ExpireAtMS != 0 {
				c.Expires++
			}
		}
		if err := w.BeginDB(db, c); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if err := r.WriteTo(w); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReportGolden pins the JSON shape of a Report and what it says of a file of every
// type. Run go test ./inspect -update to rewrite it.
func TestReportGolden(t *testing.T) {
	file := sample(t, "redis-7.4")
	rep, err := inspect.Read(context.Background(), bytes.NewReader(file), inspect.Options{Now: now, Top: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "report.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./inspect -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("report differs from %s (run go test ./inspect -update if intended):\n%s", path, got)
	}
	// What the golden file must say, whatever it holds.
	if rep.Keys != 11 || rep.Expires != 4 || rep.Expiry.Expired != 1 || len(rep.DBs) != 2 || rep.Bytes != int64(len(file)) {
		t.Errorf("keys %d, expires %d, expired %d, dbs %d, bytes %d", rep.Keys, rep.Expires, rep.Expiry.Expired, len(rep.DBs), rep.Bytes)
	}
	if rep.Memory.Target != "redis-7.4" || rep.Memory.Keys != rep.Keys-rep.Expiry.Expired {
		t.Errorf("memory: target %s, %d keys", rep.Memory.Target, rep.Memory.Keys)
	}
	var sum int64
	for _, d := range rep.DBs {
		sum += d.Bytes
	}
	if top := rep.Largest.BySize[0]; top.Key != "list" || top.Bytes > sum || rep.Largest.ByMembers[0].Key != "list" {
		t.Errorf("largest: %+v, %+v", rep.Largest.BySize, rep.Largest.ByMembers)
	}
}

// The serialized sizes of the records add up to the file, less its header, AUX fields,
// database opcodes, expiries and trailer.
func TestRecordSizes(t *testing.T) {
	file := sample(t, "redis-7.4")
	rep, err := inspect.Read(context.Background(), bytes.NewReader(file), inspect.Options{Top: 100, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	var keys, types int64
	for _, k := range rep.Largest.BySize {
		keys += k.Bytes
	}
	for _, ty := range rep.Types {
		types += ty.Bytes
	}
	if keys != types || keys <= 0 || keys >= rep.Bytes {
		t.Errorf("keys add up to %d, types to %d, the file is %d", keys, types, rep.Bytes)
	}
	if len(rep.Largest.BySize) != int(rep.Keys) {
		t.Errorf("%d keys listed, want all %d", len(rep.Largest.BySize), rep.Keys)
	}
	for i := 1; i < len(rep.Largest.BySize); i++ {
		if rep.Largest.BySize[i].Bytes > rep.Largest.BySize[i-1].Bytes {
			t.Errorf("by size out of order at %d: %+v", i, rep.Largest.BySize)
		}
	}
	for _, k := range rep.Largest.ByMembers {
		if k.Type == record.String {
			t.Errorf("string %q listed by members", k.Key)
		}
	}
}

func TestTop(t *testing.T) {
	// Keys k0 … k9 of sizes that repeat, so ties are ordered by key.
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{CreatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.BeginDB(0, record.Counts{}); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := writeString(w, fmt.Appendf(nil, "k%d", i), bytes.Repeat([]byte("a"), 1+i%3), 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		top  int
		want string
	}{
		{-1, ""}, {1, "k2"}, {3, "k2 k5 k8"}, {4, "k2 k5 k8 k1"}, {10, "k2 k5 k8 k1 k4 k7 k0 k3 k6 k9"}, {20, "k2 k5 k8 k1 k4 k7 k0 k3 k6 k9"},
	} {
		t.Run(fmt.Sprint(c.top), func(t *testing.T) {
			rep, err := inspect.Read(context.Background(), bytes.NewReader(buf.Bytes()), inspect.Options{Top: c.top})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, k := range rep.Largest.BySize {
				got = append(got, k.Key)
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if len(rep.Largest.ByMembers) != 0 {
				t.Errorf("strings listed by members: %+v", rep.Largest.ByMembers)
			}
		})
	}
}

func TestExpiryHistogram(t *testing.T) {
	const m = int64(time.Minute / time.Millisecond)
	for _, c := range []struct {
		name   string
		offset int64 // ms from now
		bucket string
	}{
		{"long-past", -365 * 24 * 60 * m, "expired"},
		{"now", 0, "expired"},
		{"1ms", 1, "1m"},
		{"1m", m, "1m"},
		{"1m+1ms", m + 1, "1h"},
		{"1h", 60 * m, "1h"},
		{"1d", 24 * 60 * m, "1d"},
		{"7d", 7 * 24 * 60 * m, "7d"},
		{"30d", 30 * 24 * 60 * m, "30d"},
		{"365d", 365 * 24 * 60 * m, "365d"},
		{"365d+1ms", 365*24*60*m + 1, "later"},
	} {
		t.Run(c.name, func(t *testing.T) {
			at := now.UnixMilli() + c.offset
			if at <= 0 {
				at = 1
			}
			var buf bytes.Buffer
			w, err := rdbsink.NewWriter(&buf, encoder.Options{CreatedAt: now})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.BeginDB(0, record.Counts{Keys: 1, Expires: 1}); err != nil {
				t.Fatal(err)
			}
			if err := writeString(w, []byte("k"), []byte("v"), at); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			rep, err := inspect.Read(context.Background(), &buf, inspect.Options{Now: now})
			if err != nil {
				t.Fatal(err)
			}
			x := rep.Expiry
			if x.Keys != 1 || x.EarliestMS != at || x.LatestMS != at || x.NowMS != now.UnixMilli() {
				t.Errorf("expiry %+v, want one at %d", x, at)
			}
			for _, b := range x.Histogram {
				want := uint64(0)
				if b.Within == c.bucket {
					want = 1
				}
				if b.Keys != want {
					t.Errorf("bucket %s holds %d, want %d", b.Within, b.Keys, want)
				}
			}
			if expired := c.bucket == "expired"; (x.Expired == 1) != expired {
				t.Errorf("expired %d", x.Expired)
			}
		})
	}
}

// The memory estimate's target: the one given, else the release the file names, else the
// Redis of its RDB version, else FallbackTarget.
func TestDefaultTarget(t *testing.T) {
	header := func(version int, aux ...string) []byte {
		b := fmt.Appendf(nil, "REDIS%04d", version)
		if version >= rdb.ValkeyVersion {
			b = fmt.Appendf(nil, "VALKEY%03d", version)
		}
		for i := 0; i < len(aux); i += 2 {
			b = append(b, 250, byte(len(aux[i])))
			b = append(b, aux[i]...)
			b = append(b, byte(len(aux[i+1])))
			b = append(b, aux[i+1]...)
		}
		b = append(b, 255)
		if version >= 5 {
			b = append(b, make([]byte, 8)...) // no checksum
		}
		return b
	}
	for _, c := range []struct {
		name, target string
		file         []byte
		want         string
	}{
		{"redis-7.0.15", "", header(10, "redis-ver", "7.0.15"), "redis-7.0"},
		{"valkey-8.0.1", "", header(11, "valkey-ver", "8.0.1", "redis-ver", "7.2.4"), "valkey-8.0"},
		{"unknown release", "", header(11, "redis-ver", "99.1.0"), "redis-7.2"},
		{"release older than the version", "", header(12, "redis-ver", "7.0.0"), "redis-7.4"},
		{"rdb 9", "", header(9), "redis-5.0"},
		{"rdb 12", "", header(12), "redis-7.4"},
		{"rdb 6", "", header(6), inspect.FallbackTarget},
		{"VALKEY080", "", header(80), "valkey-9.0"},
		{"VALKEY080 of valkey 9.0.0", "", header(80, "valkey-ver", "9.0.0", "redis-ver", "7.2.4"), "valkey-9.0"},
		{"given", "valkey-8.1", header(10, "redis-ver", "7.0.15"), "valkey-8.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := inspect.Read(context.Background(), bytes.NewReader(c.file), inspect.Options{Target: c.target})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Memory.Target != c.want || rep.Keys != 0 || rep.Memory.Bytes != 0 {
				t.Errorf("target %s (%d keys, %d bytes), want %s", rep.Memory.Target, rep.Keys, rep.Memory.Bytes, c.want)
			}
		})
	}
	if _, err := inspect.Read(context.Background(), bytes.NewReader(header(9)), inspect.Options{Target: "redis-1.0"}); !errors.Is(err, inspect.ErrBadOption) || !errors.Is(err, rdb.ErrUnknownTarget) {
		t.Errorf("unknown target: %v", err)
	}
}

// Bad input is one error naming the file and the byte offset.
func TestBadInput(t *testing.T) {
	good := sample(t, "redis-7.4")
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0xff
		return b
	}
	for _, c := range []struct {
		name string
		file []byte
		want error
		at   string
	}{
		{"empty", nil, decoder.ErrNotRDB, "rdb byte 0:"},
		{"not rdb", []byte("this is not an RDB file at all"), decoder.ErrNotRDB, "rdb byte 0:"},
		{"json", []byte(`[{"key":"a"}]`), decoder.ErrNotRDB, "rdb byte 0:"},
		{"version", []byte("REDIS0099\xff"), decoder.ErrVersion, "rdb byte 5:"},
		{"truncated", good[:len(good)/2], decoder.ErrTruncated, "rdb byte "},
		{"no trailer", good[:len(good)-8], decoder.ErrTruncated, "rdb byte "},
		{"checksum", flip(len(good) - 1), decoder.ErrChecksum, fmt.Sprintf("rdb byte %d:", len(good)-8)},
		{"damaged value", flip(bytes.Index(good, []byte("0.1.0"))), decoder.ErrChecksum, fmt.Sprintf("rdb byte %d:", len(good)-8)},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dump.rdb")
			if err := os.WriteFile(path, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := inspect.File(context.Background(), path, inspect.Options{})
			var de *decoder.Error
			if !errors.Is(err, c.want) || !errors.As(err, &de) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "read "+path+": ") || !strings.Contains(msg, c.at) || strings.Contains(msg, "\n") {
				t.Errorf("message %q: want one line naming %s and %q", msg, path, c.at)
			}
		})
	}
	if _, err := inspect.File(context.Background(), filepath.Join(t.TempDir(), "missing.rdb"), inspect.Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// Read names the file as Options.Name says, and leaves the error as it is without one.
	notRDB := []byte("this is not an RDB file at all")
	if _, err := inspect.Read(context.Background(), bytes.NewReader(notRDB), inspect.Options{Name: "stdin"}); !errors.Is(err, decoder.ErrNotRDB) || !strings.HasPrefix(err.Error(), "read stdin: rdb byte 0:") {
		t.Errorf("Read with a name: %v", err)
	}
	if _, err := inspect.Read(context.Background(), bytes.NewReader(notRDB), inspect.Options{}); !errors.Is(err, decoder.ErrNotRDB) || strings.HasPrefix(err.Error(), "read ") {
		t.Errorf("Read without a name: %v", err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := sample(t, "redis-7.4")
	// A file of many records, so that the reader checks ctx.
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.BeginDB(0, record.Counts{}); err != nil {
		t.Fatal(err)
	}
	for i := range 10000 {
		if err := writeString(w, fmt.Appendf(nil, "k%d", i), d[:10], 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := inspect.Read(ctx, &buf, inspect.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

// TestModuleValues checks that module values are keys of type "module", counted per module
// as module AUX records are, and that the memory estimate says it is a lower bound.
func TestModuleValues(t *testing.T) {
	rep, err := inspect.Read(context.Background(), bytes.NewReader(fx.ModuleFile()), inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []inspect.ModuleCount{{Module: "MBbloom--", Count: 2}, {Module: "ReJSON-RL", Count: 1}}
	if rep.SkippedModules != 0 || fmt.Sprint(rep.Modules) != fmt.Sprint(want) || fmt.Sprint(rep.ModuleAux) != "[{ft-index0 1}]" || rep.Keys != 4 {
		t.Fatalf("report: %d skipped, modules %v, aux %v, %d keys", rep.SkippedModules, rep.Modules, rep.ModuleAux, rep.Keys)
	}
	var mod inspect.TypeCount
	for _, tc := range rep.Types {
		if tc.Type == record.Module {
			mod = tc
		}
	}
	if mod.Keys != 3 || mod.Bytes == 0 || !rep.Memory.LowerBound || rep.Memory.Keys != 4 {
		t.Fatalf("module keys %+v, memory %+v", mod, rep.Memory)
	}
}
