package decoder_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// nopSink counts records and members and drops them.
type nopSink struct{ keys, members uint64 }

func (s *nopSink) BeginDB(int, record.Counts) error       { return nil }
func (s *nopSink) Begin(*record.Header) error             { s.keys++; return nil }
func (s *nopSink) Add(*record.Member) error               { s.members++; return nil }
func (s *nopSink) End(*record.StreamTail) error           { return nil }
func (s *nopSink) WriteFunction([]byte) error             { return nil }
func (s *nopSink) WriteModuleAux(*record.ModuleAux) error { return nil }

// writeDefaultDump writes the default dataset of n keys (key100000001…, values equal to
// the keys), as `rdbgen --count n` does, into dir.
func writeDefaultDump(b *testing.B, dir string, n int) string {
	path := filepath.Join(dir, "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w, err := rdbsink.NewWriter(f, encoder.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.BeginDB(0, record.Counts{Keys: uint64(n)}); err != nil {
		b.Fatal(err)
	}
	key := []byte("key")
	for i := range n {
		key = strconv.AppendInt(key[:3], int64(100000001+i), 10)
		if err := w.Begin(&record.Header{Key: key, Type: record.String, Value: key}); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkReadDefaultDump reads the 10M-key default dump with decoder and with
// github.com/hdt3213/rdb's parser, side by side in each iteration, and reports the keys/s
// of both and their ratio (-short: 1M keys). Run with: make bench.
func BenchmarkReadDefaultDump(b *testing.B) {
	n := 10_000_000
	if testing.Short() {
		n = 1_000_000
	}
	path := writeDefaultDump(b, b.TempDir(), n)
	var ours, theirs time.Duration
	for b.Loop() {
		start := time.Now()
		var s nopSink
		if err := (decoder.File{Path: path}).WriteTo(context.Background(), &s); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(start)
		if s.keys != uint64(n) {
			b.Fatalf("decoder read %d keys, want %d", s.keys, n)
		}

		start = time.Now()
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		keys := 0
		err = parser.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Parse(func(parser.RedisObject) bool { keys++; return true })
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		theirs += time.Since(start)
		if keys != n {
			b.Fatalf("hdt3213 read %d keys, want %d", keys, n)
		}
	}
	iters := float64(b.N)
	b.ReportMetric(float64(n)*iters/ours.Seconds(), "keys/s")
	b.ReportMetric(float64(n)*iters/theirs.Seconds(), "hdt3213-keys/s")
	b.ReportMetric(theirs.Seconds()/ours.Seconds(), "x-faster")
}

// BenchmarkReadBigSet reads one set of 10M members (-short: 1M) and reports the bytes the
// reader allocated while reading it: constant, whatever the set's size.
func BenchmarkReadBigSet(b *testing.B) {
	n := 10_000_000
	if testing.Short() {
		n = 1_000_000
	}
	path := filepath.Join(b.TempDir(), "set.rdb")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w, err := rdbsink.NewWriter(f, encoder.Options{})
	if err == nil {
		err = w.BeginDB(0, record.Counts{})
	}
	if err == nil {
		err = w.Begin(&record.Header{Key: []byte("big"), Type: record.Set, Len: uint64(n)})
	}
	m := record.Member{Name: []byte("member")}
	for i := 0; i < n && err == nil; i++ {
		m.Name = strconv.AppendInt(m.Name[:6], int64(i), 10)
		err = w.Add(&m)
	}
	if err == nil {
		err = w.End(nil)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
	f.Close()
	var alloc uint64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var s nopSink
		if err := (decoder.File{Path: path}).WriteTo(context.Background(), &s); err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		alloc = after.TotalAlloc - before.TotalAlloc
		if s.members != uint64(n) {
			b.Fatalf("read %d members, want %d", s.members, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "members/s")
	b.ReportMetric(float64(alloc)/(1<<20), "MiB-allocated")
}
