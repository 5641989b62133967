package rebase_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/verify"
)

// writeStale writes n string keys (or hashes of 10 fields) that expired ttl after a base
// time two days ago, for target, and returns the path.
func writeStale(tb testing.TB, dir string, n uint64, typ record.Type, target string) string {
	tb.Helper()
	base := time.Now().Add(-48 * time.Hour)
	d := &dataset.Config{Count: n, KeyPrefix: "key", KeyStart: 1, Value: dataset.ValueSame, Type: typ,
		TTL: time.Hour, BaseTimeMS: base.UnixMilli(), Seed: 1}
	if typ == record.Hash {
		d.Members = dataset.Range{Min: 10, Max: 10}
	}
	path := filepath.Join(dir, "dump.rdb")
	out, err := output.File(path, output.Options{Encoder: encoder.Options{Target: target, CreatedAt: base}, NoManifest: true, Force: true})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := out.Write(context.Background(), d, nil); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestFile rebases a stale file in place, in its RDB version: every key has its hour
// again, and the file is sound.
func TestFile(t *testing.T) {
	for _, target := range []string{"redis-5.0", "redis-7.0", "redis-7.4"} {
		t.Run(target, func(t *testing.T) {
			path := writeStale(t, t.TempDir(), 1000, record.Hash, target)
			before, _ := verify.File(context.Background(), path, verify.Options{Offline: true})
			now := time.Now()
			res, err := rebase.File(context.Background(), path, now)
			if err != nil {
				t.Fatal(err)
			}
			if res.Moved.Keys != 1000 || res.Shift.ShiftMS < 48*3600_000-2000 || res.Shift.ShiftMS > 48*3600_000+2000 {
				t.Fatalf("result %+v", res)
			}
			rep, err := verify.File(context.Background(), path, verify.Options{Offline: true})
			if err != nil || !rep.Pass {
				t.Fatalf("verify: %v, %+v", err, rep)
			}
			f := rep.File
			if f.RDBVersion != before.File.RDBVersion || f.Keys != 1000 || f.Expired != 0 || f.Aux["ctime"] != fmt.Sprint(now.Unix()) {
				t.Fatalf("after: version %d (was %d), %d keys, %d expired, ctime %s", f.RDBVersion, before.File.RDBVersion, f.Keys, f.Expired, f.Aux["ctime"])
			}
			if left := time.UnixMilli(f.MaxExpireAtMS).Sub(now); left < time.Hour-2*time.Second || left > time.Hour+time.Second {
				t.Fatalf("the last key has %s left, want an hour", left)
			}
			if es, _ := os.ReadDir(filepath.Dir(path)); len(es) != 1 {
				t.Fatalf("the directory holds %v", es)
			}
		})
	}
	if _, err := rebase.File(context.Background(), filepath.Join(t.TempDir(), "none.rdb"), time.Now()); !os.IsNotExist(err) {
		t.Fatalf("a missing file: %v", err)
	}
}

// BenchmarkFile measures what an image's entrypoint costs at start-up with
// --expiry-from-start: a file of N string keys with TTLs (redis-7.0) rebased in place, read
// and written whole, fsync included. Per million keys: ns/op * 1e6 / N.
//
//	go test -run '^$' -bench File -benchtime 5x ./rebase
func BenchmarkFile(b *testing.B) {
	for _, n := range []uint64{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			path := writeStale(b, b.TempDir(), n, record.String, "redis-7.0")
			fi, _ := os.Stat(path)
			b.SetBytes(fi.Size())
			b.ResetTimer()
			for b.Loop() {
				if _, err := rebase.File(context.Background(), path, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed())/1e6/float64(b.N)/float64(n)*1e6, "ms/Mkeys")
		})
	}
}

// TestFileKeepsFunctions: a dump rebased in place (as an image does at its start)
// keeps its function libraries.
func TestFileKeepsFunctions(t *testing.T) {
	dump := redistest.WriteFunctionDump(t, true)
	if _, err := rebase.File(context.Background(), dump, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	var c record.Collector
	if _, err := (decoder.File{Path: dump}).Read(context.Background(), &c); err != nil || len(c.Functions) != 2 {
		t.Fatalf("the rebased file: %v, %d libraries; want 2", err, len(c.Functions))
	}
}
