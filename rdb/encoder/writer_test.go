package encoder

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	stdcrc64 "hash/crc64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/internal/crc64"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var fixedTime = time.Unix(1700000000, 0)

func TestNewWriterOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr error
		wantMsg string
	}{
		{"unknown target", Options{Target: "redis-9.9"}, rdb.ErrUnknownTarget, "known: redis-5.0, redis-6.0"},
		{"version too low", Options{RDBVersion: 6}, rdb.ErrInvalidOption, "rdb version 6"},
		{"version too high", Options{RDBVersion: 13}, rdb.ErrInvalidOption, "rdb version 13"},
		{"buffer too small", Options{BufferSize: 100}, rdb.ErrInvalidOption, "buffer size 100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewWriter(&bytes.Buffer{}, tt.opts)
			if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("NewWriter: %v, want %v containing %q", err, tt.wantErr, tt.wantMsg)
			}
		})
	}
	if _, err := NewWriter(nil, Options{}); !errors.Is(err, rdb.ErrInvalidOption) {
		t.Fatalf("nil destination: %v", err)
	}
}

func TestHeaderVersionPerTarget(t *testing.T) {
	want := map[string]string{
		"":           "REDIS0009",
		"redis-5.0":  "REDIS0009",
		"redis-6.2":  "REDIS0009",
		"redis-7.0":  "REDIS0010",
		"redis-7.2":  "REDIS0011",
		"redis-7.4":  "REDIS0012",
		"redis-8.2":  "REDIS0012",
		"valkey-7.2": "REDIS0011",
		"valkey-9.0": "REDIS0011",
		"REDIS-7.0":  "REDIS0010",
	}
	for target, header := range want {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, Options{Target: target})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got := buf.String()[:9]; got != header {
			t.Errorf("target %q: header %q, want %q", target, got, header)
		}
	}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Options{Target: "redis-7.4", RDBVersion: 9})
	w.Close()
	if got := buf.String()[:9]; got != "REDIS0009" {
		t.Errorf("explicit version: header %q", got)
	}
}

// closeTracker records whether Close was called on it.
type closeTracker struct {
	bytes.Buffer
	closed bool
}

func (c *closeTracker) Close() error { c.closed = true; return nil }

func TestCloseWritesTrailerAndKeepsDestinationOpen(t *testing.T) {
	for _, disable := range []bool{false, true} {
		dst := new(closeTracker)
		w, err := NewWriter(dst, Options{DisableChecksum: disable, CreatedAt: fixedTime})
		if err != nil {
			t.Fatal(err)
		}
		must(t, w.BeginDB(0, DBInfo{Keys: 2, Expires: 1}))
		must(t, sinkString(w, []byte("a"), []byte("1"), 0))
		must(t, sinkString(w, []byte("b"), []byte("2"), 1893456000000))
		must(t, w.Close())
		must(t, w.Close()) // a second Close is a no-op
		if dst.closed {
			t.Fatal("Close closed the destination")
		}
		file := dst.Bytes()
		if w.Stats().Bytes != int64(len(file)) {
			t.Fatalf("Stats().Bytes = %d, file has %d", w.Stats().Bytes, len(file))
		}
		trailer := binary.LittleEndian.Uint64(file[len(file)-8:])
		want := crc64.Checksum(file[:len(file)-8])
		if disable {
			want = 0
		}
		if trailer != want || w.Stats().Checksum != want {
			t.Fatalf("trailer %#x, Stats %#x, want %#x", trailer, w.Stats().Checksum, want)
		}
		if file[len(file)-9] != opEOF {
			t.Fatalf("no EOF opcode before the checksum")
		}
		if err := sinkString(w, []byte("c"), nil, 0); !errors.Is(err, ErrClosed) {
			t.Fatalf("write after Close: %v", err)
		}
		if err := w.BeginDB(1, DBInfo{}); !errors.Is(err, ErrClosed) {
			t.Fatalf("BeginDB after Close: %v", err)
		}
	}
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct {
	n      int
	writes int
}

var errDiskFull = errors.New("no space left on device")

func (f *failingWriter) Write(p []byte) (int, error) {
	f.writes++
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	n := f.n
	f.n = 0
	return n, errDiskFull
}

func TestStickyError(t *testing.T) {
	dst := &failingWriter{n: 10000}
	w, err := NewWriter(dst, Options{BufferSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	must(t, w.BeginDB(0, DBInfo{}))
	var first error
	for i := range 100000 {
		if err := sinkString(w, fmt.Appendf(nil, "key%d", i), []byte("value"), 0); err != nil {
			first = err
			break
		}
	}
	if !errors.Is(first, errDiskFull) {
		t.Fatalf("first error %v, want the destination's", first)
	}
	writes := dst.writes
	if err := sinkString(w, []byte("x"), []byte("y"), 0); err != first {
		t.Fatalf("later write returned %v, want the first error", err)
	}
	if err := w.Close(); err != first {
		t.Fatalf("Close returned %v, want the first error", err)
	}
	if dst.writes != writes {
		t.Fatal("the writer kept writing after an error")
	}
}

func TestDatabaseSections(t *testing.T) {
	newW := func(opts Options) *Writer {
		w, err := NewWriter(&bytes.Buffer{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	t.Run("no database", func(t *testing.T) {
		w := newW(Options{})
		if err := sinkString(w, []byte("k"), []byte("v"), 0); !errors.Is(err, ErrNoDB) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("database reopened", func(t *testing.T) {
		w := newW(Options{})
		must(t, w.BeginDB(3, DBInfo{}))
		must(t, w.BeginDB(0, DBInfo{}))
		if err := w.BeginDB(3, DBInfo{}); !errors.Is(err, ErrDBReopened) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("negative database", func(t *testing.T) {
		if err := newW(Options{}).BeginDB(-1, DBInfo{}); err == nil || !strings.Contains(err.Error(), "-1 (0 to 2147483647)") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("count mismatch", func(t *testing.T) {
		w := newW(Options{})
		must(t, w.BeginDB(0, DBInfo{Keys: 2}))
		must(t, sinkString(w, []byte("k"), []byte("v"), 0))
		if err := w.Close(); !errors.Is(err, ErrCountMismatch) || !strings.Contains(err.Error(), "declared 2 keys") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("expiry count mismatch", func(t *testing.T) {
		w := newW(Options{})
		must(t, w.BeginDB(0, DBInfo{Keys: 1, Expires: 1}))
		must(t, sinkString(w, []byte("k"), []byte("v"), 0))
		if err := w.BeginDB(1, DBInfo{}); !errors.Is(err, ErrCountMismatch) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("negative expiry", func(t *testing.T) {
		w := newW(Options{})
		must(t, w.BeginDB(0, DBInfo{}))
		if err := sinkString(w, []byte("k"), []byte("v"), -5); !errors.Is(err, ErrInvalidExpiry) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("duplicates checked per database", func(t *testing.T) {
		w := newW(Options{CheckDuplicates: true})
		must(t, w.BeginDB(0, DBInfo{}))
		must(t, sinkString(w, []byte("k"), []byte("v"), 0))
		must(t, w.BeginDB(1, DBInfo{}))
		must(t, sinkString(w, []byte("k"), []byte("v"), 0))
		err := sinkString(w, []byte("k"), []byte("w"), 0)
		if !errors.Is(err, ErrDuplicateKey) || !strings.Contains(err.Error(), `"k" in db 1`) {
			t.Fatalf("got %v", err)
		}
	})
}

// goldenCases are small files whose bytes must not change unnoticed.
var goldenCases = []struct {
	name  string
	opts  Options
	write func(w *Writer) error
}{
	{"empty", Options{}, func(w *Writer) error { return nil }},
	{"strings-v9", Options{}, writeGoldenStrings},
	{"strings-v10-nocompress", Options{Target: "redis-7.0", DisableCompression: true}, writeGoldenStrings},
	{"strings-v12-nochecksum", Options{Target: "redis-7.4", DisableChecksum: true}, writeGoldenStrings},
}

func writeGoldenStrings(w *Writer) error {
	if err := w.BeginDB(0, DBInfo{Keys: 5, Expires: 1}); err != nil {
		return err
	}
	for _, kv := range [][2]string{
		{"key100000001", "key100000001"},
		{"100", "-32768"},
		{"big", "2147483648"},
		{"long", strings.Repeat("compressible ", 10)},
	} {
		if err := sinkString(w, []byte(kv[0]), []byte(kv[1]), 0); err != nil {
			return err
		}
	}
	if err := sinkString(w, []byte("ttl"), []byte("v"), 1893456000000); err != nil {
		return err
	}
	if err := w.BeginDB(3, DBInfo{}); err != nil {
		return err
	}
	return sinkString(w, []byte("in-db-3"), []byte(""), 0)
}

// goldenToolVersion is the rdbgen-ver AUX field of the golden files.
const goldenToolVersion = "0.1.0"

func TestGolden(t *testing.T) {
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			var buf bytes.Buffer
			opts := gc.opts
			opts.CreatedAt = fixedTime
			opts.ToolVersion = goldenToolVersion
			w, err := NewWriter(&buf, opts)
			if err != nil {
				t.Fatal(err)
			}
			must(t, gc.write(w))
			must(t, w.Close())
			path := filepath.Join("testdata", gc.name+".rdb")
			if *update {
				must(t, os.WriteFile(path, buf.Bytes(), 0o644))
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./encoder -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Fatalf("%s differs from the golden file:\n got % x\nwant % x", gc.name, buf.Bytes(), want)
			}
		})
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func BenchmarkWriteString(b *testing.B) {
	w, err := NewWriter(discard{}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	must(b, w.BeginDB(0, DBInfo{}))
	key := []byte("key100000001")
	b.SetBytes(27)
	for b.Loop() {
		if err := w.WriteString(key, key, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// sizedWriter keeps what is written to it and the size of each write.
type sizedWriter struct {
	bytes.Buffer
	sizes []int
}

func (s *sizedWriter) Write(p []byte) (int, error) {
	s.sizes = append(s.sizes, len(p))
	return s.Buffer.Write(p)
}

// TestChecksumAcrossBuffers writes many buffers' worth of records: each buffer reaches the
// destination once full, before Close, and the trailer is the checksum of everything before
// it, whichever way the checksum is computed (tables, or folding where the CPU can).
func TestChecksumAcrossBuffers(t *testing.T) {
	const size = 4096
	dst := &sizedWriter{}
	w, err := NewWriter(dst, Options{BufferSize: size, CreatedAt: fixedTime})
	if err != nil {
		t.Fatal(err)
	}
	must(t, w.BeginDB(0, DBInfo{}))
	for i := range 20000 {
		must(t, sinkString(w, fmt.Appendf(nil, "key%d", i), bytes.Repeat([]byte{byte(i)}, i%90), 0))
		if got := w.Stats().Bytes; got != int64(dst.Len()) {
			t.Fatalf("record %d: Stats().Bytes = %d, the destination has %d", i, got, dst.Len())
		}
	}
	before := len(dst.sizes)
	must(t, w.Close())
	if before < 80 { // about 400 KB in 4 KiB buffers
		t.Fatalf("%d writes before Close, want one per full buffer", before)
	}
	for i, n := range dst.sizes[:before] {
		if n < size {
			t.Fatalf("write %d of %d bytes: buffers are written once full (%d)", i, n, size)
		}
	}
	file := dst.Bytes()
	want := crc64.Checksum(file[:len(file)-8])
	jones := stdcrc64.MakeTable(0x95ac9329ac4bc9b5) // the Jones polynomial, reflected
	if want != ^stdcrc64.Update(^uint64(0), jones, file[:len(file)-8]) {
		t.Fatal("crc64.Checksum disagrees with hash/crc64")
	}
	if got := binary.LittleEndian.Uint64(file[len(file)-8:]); got != want || w.Stats().Checksum != want {
		t.Fatalf("trailer %#x, Stats %#x, want %#x", got, w.Stats().Checksum, want)
	}
}

// TestToolVersionAux: the rdbgen-ver AUX field is Options.ToolVersion, and absent without it.
func TestToolVersionAux(t *testing.T) {
	for _, tv := range []string{"", "1.2.0-rc.1"} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, Options{CreatedAt: fixedTime, ToolVersion: tv})
		must(t, err)
		must(t, w.Close())
		field := append([]byte("\x0ardbgen-ver"), byte(len(tv)))
		field = append(field, tv...)
		if got := bytes.Contains(buf.Bytes(), field); got != (tv != "") || bytes.Contains(buf.Bytes(), []byte("rdbgen-ver")) != (tv != "") {
			t.Errorf("ToolVersion %q: file % x", tv, buf.Bytes())
		}
	}
}
