package loader_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
	"github.com/rdbgen/rdbgen/spec"
)

// debugArgs let a test server answer DEBUG DIGEST.
var debugArgs = []string{"--enable-debug-command", "yes"}

// digest returns the DEBUG DIGEST of the server at addr: a hash of every key, its type,
// value and whether it expires, over every database.
func digest(t *testing.T, addr string) string {
	t.Helper()
	d, err := servertest.Client(t, addr, 0).Do(t.Context(), "DEBUG", "DIGEST").Text()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// emptyDigest is the digest of a server without keys.
const emptyDigest = "0000000000000000000000000000000000000000"

// writeRDB writes src into an RDB file for Redis 7.0 and returns its path.
func writeRDB(t *testing.T, src record.Source) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := rdbsink.NewWriter(f, encoder.Options{Target: "redis-7.0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := src.WriteTo(t.Context(), w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeRESP writes src's commands for o's server into a file and returns its path.
func writeRESP(t *testing.T, src record.Source, o resp.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.resp")
	out, err := output.File(path, output.Options{RESP: &o})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write(t.Context(), src, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// flush empties the server at addr.
func flush(t *testing.T, addr string) {
	t.Helper()
	if err := servertest.Client(t, addr, 0).FlushAll(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
}

// exampleSpec reads an example spec, scaled to about 20,000 keys at most.
func exampleSpec(t *testing.T, name string) *spec.Spec {
	t.Helper()
	path := filepath.Join("..", "examples", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Params
	p.BaseTimeMS = time.Now().UnixMilli()
	if err := s.SetParams(p); err != nil {
		t.Fatal(err)
	}
	if n := s.Keys(); n > 20000 {
		p.CountScale = 20000 / float64(n)
		if err := s.SetParams(p); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestSameDataThreeWays loads the same records three ways, into a server started on the
// RDB file, through every loader method, and with redis-cli --pipe fed the RESP stream,
// and checks that DEBUG DIGEST is the same every time: the same keys, types, values and
// expiring keys.
func TestSameDataThreeWays(t *testing.T) {
	base := time.Now().UnixMilli()
	ttl := func(d dataset.Config) *dataset.Config {
		d.TTL, d.TTLJitter, d.BaseTimeMS = time.Hour, time.Minute, base
		return &d
	}
	coll := func(typ record.Type, members dataset.Range) *dataset.Config {
		return ttl(dataset.Config{Count: 2000, Type: typ, Members: members, KeyPrefix: string(typ) + ":", Value: dataset.ValueRandom, ValueSize: 20, Seed: 5})
	}
	tests := []struct {
		name string
		src  func(t *testing.T) record.Source
	}{
		{"default dataset", func(*testing.T) record.Source {
			return &dataset.Config{Count: 20000, KeyPrefix: "key", KeyStart: 100000001}
		}},
		{"strings random ttl db 3", func(*testing.T) record.Source {
			return ttl(dataset.Config{Count: 5000, KeyPrefix: "s:", Value: dataset.ValueRandom, ValueSize: 100, Seed: 3, DB: 3})
		}},
		{"hash", func(*testing.T) record.Source { return coll(record.Hash, dataset.Range{Min: 1, Max: 40}) }},
		{"list", func(*testing.T) record.Source { return coll(record.List, dataset.Range{Min: 1, Max: 40}) }},
		{"set", func(*testing.T) record.Source { return coll(record.Set, dataset.Range{Min: 1, Max: 300}) }},
		{"zset", func(*testing.T) record.Source { return coll(record.ZSet, dataset.Range{Min: 1, Max: 200}) }},
		{"large set split into commands", func(*testing.T) record.Source {
			return &dataset.Config{Count: 2, Type: record.Set, Members: dataset.Range{Min: 25000, Max: 25000}, KeyPrefix: "big:"}
		}},
		{"large zset split into commands", func(*testing.T) record.Source {
			return &dataset.Config{Count: 1, Type: record.ZSet, Members: dataset.Range{Min: 20000, Max: 20000}, KeyPrefix: "bigz:",
				Value: dataset.ValueRandom, ValueSize: 16, Seed: 9}
		}},
	}
	for _, name := range []string{"mass-insert.yaml", "sessions.yaml", "spring-cache.yaml", "spring-data-redis.yaml"} {
		tests = append(tests, struct {
			name string
			src  func(t *testing.T) record.Source
		}{"spec " + name, func(t *testing.T) record.Source { return exampleSpec(t, name) }})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src(t)
			want := digest(t, servertest.Start(t, writeRDB(t, src), debugArgs...).Addr)
			if want == emptyDigest {
				t.Fatal("the server started on the file holds no keys")
			}
			online := servertest.StartEmpty(t, debugArgs...)
			for _, m := range loader.Methods() {
				flush(t, online.Addr)
				opts := loader.Options{Addr: online.Addr, Method: m}
				if m == loader.Parallel {
					opts.Workers = 4
				}
				if m == loader.Pipeline {
					opts.Workers, opts.Batch = 3, 100
				}
				res, err := loader.Load(t.Context(), src, opts)
				if err != nil {
					t.Fatalf("%s: %v", m, err)
				}
				if got := digest(t, online.Addr); got != want {
					t.Fatalf("%s: digest %s, the file's %s", m, got, want)
				}
				if s, ok := src.(record.Sizer); ok && res.Keys != s.Len() {
					t.Fatalf("%s: %d keys confirmed, want %d", m, res.Keys, s.Len())
				}
			}
			flush(t, online.Addr)
			servertest.Pipe(t, online.Addr, writeRESP(t, src, resp.Options{Server: resp.Version{Major: 7, Minor: 0}}))
			if got := digest(t, online.Addr); got != want {
				t.Fatalf("redis-cli --pipe: digest %s, the file's %s", got, want)
			}
		})
	}
}

// TestLoadIsIdempotentForCollections loads collections twice, the second time over
// changed data: the digest is that of one load, since each collection is deleted first.
func TestLoadIsIdempotentForCollections(t *testing.T) {
	d := &dataset.Config{Count: 500, Type: record.List, Members: dataset.Range{Min: 1, Max: 20}, KeyPrefix: "l:"}
	inst := servertest.StartEmpty(t, debugArgs...)
	for i := range 2 {
		if _, err := loader.Load(t.Context(), d, loader.Options{Addr: inst.Addr, Method: loader.Mass}); err != nil {
			t.Fatalf("load %d: %v", i, err)
		}
	}
	want := digest(t, servertest.Start(t, writeRDB(t, d), debugArgs...).Addr)
	if got := digest(t, inst.Addr); got != want {
		t.Fatalf("digest after two loads %s, after one %s", got, want)
	}
}

// errSource is a source that fails after some records.
type errSource struct{ after int }

var errBroken = errors.New("broken source")

func (s errSource) WriteTo(_ context.Context, sink record.Sink) error {
	if err := sink.BeginDB(0, record.Counts{}); err != nil {
		return err
	}
	for i := range s.after {
		if err := sink.Begin(&record.Header{Key: fmt.Appendf(nil, "k%d", i), Type: record.String, Value: []byte("v")}); err != nil {
			return err
		}
	}
	return errBroken
}

// TestLoadReportsTheSourcesError: a source that fails mid-way stops the load with its
// error, after the records it wrote are confirmed.
func TestLoadReportsTheSourcesError(t *testing.T) {
	inst := servertest.StartEmpty(t)
	for _, m := range loader.Methods() {
		flush(t, inst.Addr)
		res, err := loader.Load(t.Context(), errSource{after: 3000}, loader.Options{Addr: inst.Addr, Method: m})
		if !errors.Is(err, errBroken) || res.Keys != 3000 {
			t.Fatalf("%s: %d keys, %v", m, res.Keys, err)
		}
	}
}

// TestLargeKeysKeepTheirOrder loads lists too large for one job of the workers: their
// commands must still arrive in order, on one connection, whatever the method.
func TestLargeKeysKeepTheirOrder(t *testing.T) {
	d := &dataset.Config{Count: 3, Type: record.List, Members: dataset.Range{Min: 70000, Max: 70000}, KeyPrefix: "l:",
		Value: dataset.ValueRandom, ValueSize: 8, Seed: 4, TTL: time.Hour, BaseTimeMS: time.Now().UnixMilli()}
	want := digest(t, servertest.Start(t, writeRDB(t, d), debugArgs...).Addr)
	inst := servertest.StartEmpty(t, debugArgs...)
	for _, opts := range []loader.Options{
		{Method: loader.Parallel, Workers: 4},
		{Method: loader.Pipeline, Workers: 4, Batch: 3},
		{Method: loader.Mass},
	} {
		flush(t, inst.Addr)
		opts.Addr = inst.Addr
		res, err := loader.Load(t.Context(), d, opts)
		if err != nil || res.Keys != 3 || res.Expires != 3 {
			t.Fatalf("%s: %+v, %v", opts.Method, res, err)
		}
		if got := digest(t, inst.Addr); got != want {
			t.Fatalf("%s: digest %s, the file's %s", opts.Method, got, want)
		}
	}
}

// TestRESPForOlderServers writes the commands older servers take (HMSET before 4.0, SET
// then PEXPIREAT before 6.2, XSETID without options before 7.0) and relative expiries:
// they load the same data.
func TestRESPForOlderServers(t *testing.T) {
	srcs := []record.Source{
		&dataset.Config{Count: 300, Type: record.Hash, Members: dataset.Range{Min: 1, Max: 20}, KeyPrefix: "h:",
			TTL: time.Hour, BaseTimeMS: time.Now().UnixMilli()},
		&dataset.Config{Count: 300, KeyPrefix: "s:", TTL: time.Hour, BaseTimeMS: time.Now().UnixMilli()},
	}
	inst := servertest.StartEmpty(t, debugArgs...)
	for _, src := range srcs {
		want := digest(t, servertest.Start(t, writeRDB(t, src), debugArgs...).Addr)
		for _, o := range []resp.Options{
			{Server: resp.Version{Major: 3, Minor: 2}},
			{Server: resp.Version{Major: 6, Minor: 0}},
			{Server: resp.Version{Major: 6, Minor: 2}},
			{Expiry: resp.ExpiryRelative},
		} {
			flush(t, inst.Addr)
			servertest.Pipe(t, inst.Addr, writeRESP(t, src, o))
			if got := digest(t, inst.Addr); got != want {
				t.Fatalf("%+v: digest %s, the file's %s", o, got, want)
			}
		}
	}
}
