package output_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// later is an expiry in 2100.
const later = 4102444800000

// sample holds a key of every collection type and strings, in three databases, as an import
// gives them: no counts declared.
var sample = record.Records{
	{DB: 0, Key: []byte("s"), Type: record.String, Value: []byte("v")},
	{DB: 0, Key: []byte("t"), Type: record.String, Value: []byte("w"), ExpireAtMS: later},
	{DB: 0, Key: []byte("h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f1"), Value: []byte("a")}, {Name: []byte("f2"), Value: []byte("b")}}, ExpireAtMS: later},
	{DB: 3, Key: []byte("l"), Type: record.List, Members: []record.Member{{Name: []byte("x")}, {Name: []byte("y")}, {Name: []byte("x")}}},
	{DB: 3, Key: []byte("set"), Type: record.Set, Members: []record.Member{{Name: []byte("m1")}, {Name: []byte("m2")}}},
	{DB: 15, Key: []byte("z"), Type: record.ZSet, Members: []record.Member{{Name: []byte("a"), Score: 1.5}, {Name: []byte("b"), Score: -2}}},
}

// noCounts passes the records of src on, declaring no counts, as an import does.
type noCounts struct{ src record.Source }

func (n noCounts) WriteTo(ctx context.Context, sink record.Sink) error {
	return n.src.WriteTo(ctx, zeroDB{record.Pass{Next: sink}})
}

type zeroDB struct{ record.Pass }

func (z zeroDB) BeginDB(db int, _ record.Counts) error { return z.Next.BeginDB(db, record.Counts{}) }

// serverHolds fails the test unless the server at c holds what recs say, read through its
// own commands.
func serverHolds(t *testing.T, c *redis.Client, recs []record.Record) {
	t.Helper()
	ctx := context.Background()
	for _, r := range recs {
		if err := c.Do(ctx, "SELECT", r.DB).Err(); err != nil {
			t.Fatal(err)
		}
		key := string(r.Key)
		var got, want []string
		switch r.Type {
		case record.String:
			got, want = []string{c.Get(ctx, key).Val()}, []string{string(r.Value)}
		case record.Hash:
			for f, v := range c.HGetAll(ctx, key).Val() {
				got = append(got, f+"="+v)
			}
			for _, m := range r.Members {
				want = append(want, string(m.Name)+"="+string(m.Value))
			}
		case record.List:
			got = c.LRange(ctx, key, 0, -1).Val()
			for _, m := range r.Members {
				want = append(want, string(m.Name))
			}
		case record.Set:
			got = c.SMembers(ctx, key).Val()
			for _, m := range r.Members {
				want = append(want, string(m.Name))
			}
		case record.ZSet:
			for _, z := range c.ZRangeWithScores(ctx, key, 0, -1).Val() {
				got = append(got, fmt.Sprintf("%v:%g", z.Member, z.Score))
			}
			for _, m := range r.Members {
				want = append(want, fmt.Sprintf("%s:%g", m.Name, m.Score))
			}
		}
		if r.Type != record.List {
			slices.Sort(got)
			slices.Sort(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("db %d %s: the server holds %q, want %q", r.DB, key, got, want)
		}
		ttl := c.PTTL(ctx, key).Val()
		if (r.ExpireAtMS > 0) != (ttl > 0) {
			t.Errorf("db %d %s: pttl %v, expiry %d", r.DB, key, ttl, r.ExpireAtMS)
		}
	}
}

// TestFileInRedis writes records of three databases, declaring no counts, to a file: a
// real redis-server loads it and holds the records, and the manifest's counts per database
// are what the server's INFO keyspace says.
func TestFileInRedis(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dump.rdb")
	out, err := output.File(path, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := out.Write(t.Context(), noCounts{sample}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Read(res.Manifest)
	if err != nil || res.Manifest != manifest.PathFor(path) || res.Path != path {
		t.Fatalf("manifest %s of %s: %v", res.Manifest, res.Path, err)
	}
	if m.Keys != 6 || m.Expires != 2 || m.Target != "redis-7.0" || m.RDBVersion != res.RDBVersion || m.Bytes != res.Stats.Bytes {
		t.Fatalf("manifest %+v, result %+v", m, res)
	}
	inst := servertest.Start(t, path)
	info := inst.Client().Info(t.Context(), "keyspace").Val()
	var got, want []string
	for line := range strings.Lines(info) {
		if strings.HasPrefix(line, "db") {
			keys, _, _ := strings.Cut(line, "avg_ttl")
			got = append(got, keys)
		}
	}
	for _, db := range []int{0, 3, 15} {
		n := m.DBs[db]
		want = append(want, fmt.Sprintf("db%d:keys=%d,expires=%d,", db, n.Keys, n.Expires))
	}
	if len(m.DBs) != 3 || !slices.Equal(got, want) {
		t.Fatalf("the server holds %q, the manifest says %q", got, want)
	}
	serverHolds(t, inst.Client(), sample)
}

// failAfter is a source of n default keys that fails after them, with err.
type failAfter struct {
	n   uint64
	err error
}

func (f failAfter) WriteTo(ctx context.Context, sink record.Sink) error {
	if err := (&dataset.Config{Count: f.n, KeyPrefix: "k:", KeyStart: 1}).WriteTo(ctx, sink); err != nil {
		return err
	}
	return f.err
}

// TestFileNeverTruncates: a source that fails or is cancelled once megabytes have gone to
// the temporary file leaves nothing at the path, nor a good file there changed, nor a
// temporary file in the directory; an existing file or manifest is refused without Force
// before anything is written, and one that appears while the file is written is not
// replaced.
func TestFileNeverTruncates(t *testing.T) {
	errSource := errors.New("source broke")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name     string
		existing []string // files there before, by name
		opts     output.Options
		ctx      context.Context
		src      record.Source
		meantime string // a file made while the records are written
		want     error
	}{
		{"source fails", nil, output.Options{}, context.Background(), failAfter{200_000, errSource}, "", errSource},
		{"source fails, good file kept", []string{"dump.rdb", "dump.rdb.manifest.json"}, output.Options{Force: true}, context.Background(), failAfter{200_000, errSource}, "", errSource},
		{"cancelled", []string{"dump.rdb"}, output.Options{Force: true}, cancelled, &dataset.Config{Count: 200_000}, "", context.Canceled},
		{"file exists", []string{"dump.rdb"}, output.Options{}, context.Background(), sample, "", output.ErrExists},
		{"manifest exists", []string{"dump.rdb.manifest.json"}, output.Options{}, context.Background(), sample, "", output.ErrExists},
		{"file appears meanwhile", nil, output.Options{}, context.Background(), sample, "dump.rdb", output.ErrExists},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "dump.rdb")
			for _, name := range tt.existing {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("good"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := output.File(path, tt.opts)
			if err == nil {
				if tt.meantime != "" {
					if err := os.WriteFile(filepath.Join(dir, tt.meantime), []byte("good"), 0o644); err != nil {
						t.Fatal(err)
					}
					tt.existing = append(tt.existing, tt.meantime)
				}
				_, err = out.Write(tt.ctx, tt.src, nil)
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			var names []string
			for name, b := range dirFiles(t, dir) {
				names = append(names, name)
				if string(b) != "good" {
					t.Errorf("%s holds %d bytes, not what it held", name, len(b))
				}
			}
			if slices.Sort(names); !slices.Equal(names, slices.Sorted(slices.Values(tt.existing))) {
				t.Fatalf("the directory holds %q, want %q", names, tt.existing)
			}
		})
	}
}

// dirFiles returns the names and contents of the files in dir.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// TestFileStdout writes "-" to Options.Stdout: the bytes of the file the same options write,
// as a stream, with no manifest unless one is named; a named one is the file's.
func TestFileStdout(t *testing.T) {
	opts := output.Options{Encoder: encoder.Options{CreatedAt: time.Unix(1800000000, 0), Target: "redis-6.2"}}
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.rdb")
	out, err := output.File(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write(t.Context(), sample, nil); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, named := range []bool{false, true} {
		var stdout bytes.Buffer
		o := opts
		o.Stdout = &stdout
		if named {
			o.Manifest = filepath.Join(dir, "stdout.json")
		}
		out, err := output.File("-", o)
		if err != nil {
			t.Fatal(err)
		}
		res, err := out.Write(t.Context(), sample, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(stdout.Bytes(), want) || !out.Stream() || out.Written() != int64(len(want)) || res.Path != "-" {
			t.Fatalf("stdout: %d bytes (%d counted, stream %v), want the file's %d", stdout.Len(), out.Written(), out.Stream(), len(want))
		}
		if named != (res.Manifest != "") {
			t.Fatalf("manifest %q", res.Manifest)
		}
		if named {
			m, err := manifest.Read(res.Manifest)
			fm, ferr := manifest.Read(manifest.PathFor(path))
			if err != nil || ferr != nil || m.Checksum != fm.Checksum || m.Bytes != fm.Bytes {
				t.Fatalf("stdout's manifest %+v (%v), the file's %+v (%v)", m, err, fm, ferr)
			}
		}
	}
	if got := dirFiles(t, dir); len(got) != 3 {
		t.Fatalf("the directory holds %d files, want the file, its manifest and stdout's", len(got))
	}
}

// TestFileRESP writes the commands of the records to a file: no manifest, and redis-cli
// --pipe makes the records in a real server.
func TestFileRESP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.resp")
	v, err := resp.TargetVersion("redis-7.0")
	if err != nil {
		t.Fatal(err)
	}
	reports := 0
	out, err := output.File(path, output.Options{RESP: &resp.Options{Server: v}, Encoder: encoder.Options{Target: "redis-7.0"},
		Progress: func(record.Progress) { reports++ }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := out.Write(t.Context(), sample, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Manifest != "" || res.Stats.Keys != 6 || res.Stats.Expires != 2 || res.Stats.Members != 9 || res.DBs[3].Keys != 2 ||
		res.Commands == 0 || res.Target != "redis-7.0" || reports == 0 {
		t.Fatalf("result %+v, %d reports", res, reports)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != res.Stats.Bytes {
		t.Fatalf("the file: %v, %v; %d bytes written", fi, err, res.Stats.Bytes)
	}
	inst := servertest.StartEmpty(t)
	servertest.Pipe(t, inst.Addr, path)
	serverHolds(t, inst.Client(), sample)
}

// TestProgress: an RDB file reports after each write of the encoder's buffer, out of the
// source's size, and at the end with every key.
func TestProgress(t *testing.T) {
	var got []record.Progress
	out, err := output.File(filepath.Join(t.TempDir(), "d.rdb"), output.Options{
		Encoder:  encoder.Options{BufferSize: 4096},
		Progress: func(p record.Progress) { got = append(got, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write(t.Context(), &dataset.Config{Count: 10_000}, nil); err != nil {
		t.Fatal(err)
	}
	last := got[len(got)-1]
	if len(got) < 10 || last.Keys != 10_000 || last.Total != 10_000 || last.Bytes != out.Written() {
		t.Fatalf("%d reports, the last %+v; %d bytes written", len(got), last, out.Written())
	}
}

// TestDatasetManifest: a dataset source is described in its manifest by default, and a
// describe function adds what it says.
func TestDatasetManifest(t *testing.T) {
	dir := t.TempDir()
	d := &dataset.Config{Count: 100, KeyPrefix: "k:"}
	for _, describe := range []func(*manifest.Manifest){nil, func(m *manifest.Manifest) { m.Import = &manifest.Import{Format: "json"} }} {
		path := filepath.Join(dir, fmt.Sprint(describe == nil, ".rdb"))
		out, err := output.File(path, output.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := out.Write(t.Context(), d, describe); err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Read(manifest.PathFor(path))
		if err != nil || (m.Dataset != nil) != (describe == nil) || (m.Import != nil) == (describe == nil) {
			t.Fatalf("manifest %+v, %v", m, err)
		}
		var n record.Count
		if err := (decoder.File{Path: path}).WriteTo(t.Context(), &n); err != nil || n.Counts.Keys != 100 {
			t.Fatalf("read back %d keys, %v", n.Counts.Keys, err)
		}
	}
}

// TestBadOptions: options the encoder refuses fail before any file is made.
func TestBadOptions(t *testing.T) {
	dir := t.TempDir()
	_, err := output.File(filepath.Join(dir, "d.rdb"), output.Options{Encoder: encoder.Options{Target: "redis-1.0"}})
	if err == nil || len(dirFiles(t, dir)) != 0 {
		t.Fatalf("got %v, and %d files", err, len(dirFiles(t, dir)))
	}
	if _, err := output.File(filepath.Join(dir, "-"), output.Options{Encoder: encoder.Options{BufferSize: 10}}); !errors.Is(err, rdb.ErrInvalidOption) {
		t.Fatalf("got %v, want rdb.ErrInvalidOption", err)
	}
}
