package inspect_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/internal/mixedfill"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// tolerance is how far inspect's estimate may be from what the server reports.
const tolerance = 0.15

// checkFile inspects the file at path for redis-7.0 (the installed server), loads it into
// a real redis-server 7.0.15 and compares the estimate with used_memory above an empty
// server's, and the key counts.
func checkFile(t *testing.T, path string) *inspect.Report {
	t.Helper()
	rep, err := inspect.File(context.Background(), path, inspect.Options{Target: "redis-7.0"})
	if err != nil {
		t.Fatal(err)
	}
	m := servertest.Measure(t, path)
	if rep.Keys-rep.Expiry.Expired != m.Keys || rep.Memory.Keys != m.Keys {
		t.Errorf("inspect counts %d keys, %d expired (estimate %d), the server holds %d", rep.Keys, rep.Expiry.Expired, rep.Memory.Keys, m.Keys)
	}
	off := float64(rep.Memory.Bytes-m.Bytes) / float64(m.Bytes)
	t.Logf("keys %d: inspect estimates %d, the server holds %d (%+.2f%%)", rep.Keys, rep.Memory.Bytes, m.Bytes, 100*off)
	if math.Abs(off) > tolerance {
		t.Errorf("estimate %d is %+.1f%% off the measured %d (tolerance %.0f%%)", rep.Memory.Bytes, 100*off, m.Bytes, 100*tolerance)
	}
	return rep
}

// Dumps a real redis-server wrote with SAVE after a mixed fill of ordinary commands: every
// type and encoding, big and small collections, streams with a consumer group, TTLs, three
// databases; its streams alone; and a big stream with 2,100 pending entries.
func TestInspectServerDump(t *testing.T) {
	for _, c := range mixedfill.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			path := redistest.WriteDumpWith(t, nil, func(ctx context.Context, cl *redis.Client) error { return mixedfill.Send(ctx, cl, c.Recs) })
			rep := checkFile(t, path)
			// What inspect reads of the dump is what the fill sent.
			want := map[record.Type]uint64{}
			var expires uint64
			for _, r := range c.Recs {
				want[r.Type]++
				if r.ExpireAtMS != 0 {
					expires++
				}
			}
			for _, ty := range rep.Types {
				if ty.Keys != want[ty.Type] {
					t.Errorf("%s: %d keys, the fill sent %d", ty.Type, ty.Keys, want[ty.Type])
				}
			}
			if rep.Expires != expires || rep.Expiry.Keys != expires || rep.Expiry.Expired != 0 {
				t.Errorf("expires %d (spread %d, expired %d), the fill set %d", rep.Expires, rep.Expiry.Keys, rep.Expiry.Expired, expires)
			}
			if rep.Aux["redis-ver"] == "" || rep.RDBVersion != 10 {
				t.Errorf("RDB %d, aux %v", rep.RDBVersion, rep.Aux)
			}
			// The default target is the release that wrote the dump.
			def, err := inspect.File(context.Background(), path, inspect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if def.Memory.Target != "redis-7.0" {
				t.Errorf("default target %s for a dump of redis %s", def.Memory.Target, rep.Aux["redis-ver"])
			}
		})
	}
}

// generated writes d as rdbgen's default writes it (RDB 9) into a temporary file.
func generated(t *testing.T, d dataset.Config) string {
	t.Helper()
	return servertest.GenerateFile(t, &d, encoder.Options{})
}

// The default dataset at 1M keys, and at 10M without -short; 1M hashes of 10 fields.
func TestInspectDatasets(t *testing.T) {
	strs := func(n uint64) dataset.Config { return dataset.Config{Count: n, KeyPrefix: "key", KeyStart: 100000001} }
	hashes := strs(1_000_000)
	hashes.Type, hashes.Members = record.Hash, dataset.Range{Min: 10, Max: 10}
	ttl := strs(200_000)
	ttl.TTL, ttl.BaseTimeMS = time.Hour, time.Now().UnixMilli()
	cases := []struct {
		name  string
		d     dataset.Config
		short bool // run with -short
	}{
		{"default-1M", strs(1_000_000), true},
		{"default-10M", strs(10_000_000), false},
		{"hash-1M-10-fields", hashes, true},
		{"ttl-200k", ttl, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && !c.short {
				t.Skip("10M keys: run without -short")
			}
			rep := checkFile(t, generated(t, c.d))
			if rep.Keys != c.d.Count {
				t.Errorf("%d keys, want %d", rep.Keys, c.d.Count)
			}
		})
	}
}

// Each example spec, scaled down where big, written for redis-7.0.
func TestInspectExamples(t *testing.T) {
	for name, s := range servertest.ExampleSpecs(t, "../examples") {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dump.rdb")
			out, err := output.File(path, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}, NoManifest: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := out.Write(context.Background(), s, nil); err != nil {
				t.Fatal(err)
			}
			checkFile(t, path)
		})
	}
}

// A dump whose keys are half expired already: the server drops those as it loads, and so
// does the estimate (the RESIZEDB hints still size the dicts for all of them).
func TestInspectExpired(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := rdbsink.NewWriter(f, encoder.Options{Target: "redis-7.0"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 100_000
	now := time.Now()
	if err := w.BeginDB(0, record.Counts{Keys: n, Expires: n}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		exp := now.Add(-time.Hour) // expired
		if i%2 == 1 {
			exp = now.Add(time.Hour)
		}
		if err := writeString(w, fmt.Appendf(nil, "session:%d", i), fmt.Appendf(nil, "value-%d-of-some-length", i), exp.UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	rep := checkFile(t, path)
	if rep.Keys != n || rep.Expiry.Expired != n/2 || rep.Memory.Keys != n/2 {
		t.Errorf("%d keys, %d expired, estimate of %d", rep.Keys, rep.Expiry.Expired, rep.Memory.Keys)
	}
}
