package memory_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// tolerance is how far an estimate may be from what the server reports, as a fraction.
const tolerance = 0.15

// estimate feeds src to an Estimator for target.
func estimate(t testing.TB, src record.Source, target string) memory.Result {
	t.Helper()
	r, err := memory.Estimate(context.Background(), src, memory.Options{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// measure loads the file at path into a real redis-server started with args.
func measure(t testing.TB, path string, args ...string) servertest.Loaded {
	t.Helper()
	return servertest.Measure(t, path, args...)
}

// compare fails t when est is more than tolerance away from measured.
func compare(t testing.TB, est memory.Result, m servertest.Loaded) {
	t.Helper()
	if est.Keys != m.Keys {
		t.Errorf("estimate counts %d keys, the server holds %d", est.Keys, m.Keys)
	}
	measured := m.Bytes
	off := float64(est.Bytes-measured) / float64(measured)
	t.Logf("keys %d: estimate %d, measured %d (%+.1f%%)", est.Keys, est.Bytes, measured, 100*off)
	if est.Rehashing > 0 {
		t.Logf("  and up to %d while the main dict rehashes", est.Rehashing)
	}
	for _, e := range est.Encodings {
		t.Logf("  %s %s: %d keys, %d bytes", e.Type, e.Encoding, e.Keys, e.Bytes)
	}
	if math.Abs(off) > tolerance {
		t.Errorf("estimate %d is %+.1f%% off the measured %d (tolerance %.0f%%)", est.Bytes, 100*off, measured, 100*tolerance)
	}
}

// checkDataset generates d for target, loads it into a real server and compares.
func checkDataset(t *testing.T, d dataset.Config, target string) {
	t.Helper()
	path := servertest.GenerateFile(t, &d, encoder.Options{Target: target})
	compare(t, estimate(t, &d, memory.DefaultTarget), measure(t, path))
}

// The estimate of generated datasets, against Debian's redis-server 7.0.15.
func TestEstimateDatasets(t *testing.T) {
	cases := []struct {
		name   string
		d      dataset.Config
		target string
	}{
		{"strings-1M", str(1_000_000), ""},
		{"hash-1M-10-fields", coll(1_000_000, record.Hash, 10), ""},
		{"hash-100k-10-fields-7.0", coll(100_000, record.Hash, 10), "redis-7.0"},
		{"strings-random-100B-ttl", func() dataset.Config {
			d := random(str(200_000), 100)
			d.TTL, d.BaseTimeMS = time.Hour, time.Now().UnixMilli()
			return d
		}(), "redis-7.0"},
		{"strings-random-30B", random(str(200_000), 30), "redis-7.0"},
		{"hash-1000-fields", coll(1000, record.Hash, 1000), "redis-7.0"},
		{"list-10", coll(100_000, record.List, 10), "redis-7.0"},
		{"list-10000", coll(100, record.List, 10_000), "redis-7.0"},
		{"list-10000-rdb9", coll(100, record.List, 10_000), ""},
		{"set-10", coll(100_000, record.Set, 10), "redis-7.0"},
		{"set-1000", coll(1000, record.Set, 1000), "redis-7.0"},
		{"set-random-10", random(coll(100_000, record.Set, 10), 20), "redis-7.0"},
		{"zset-10", coll(100_000, record.ZSet, 10), "redis-7.0"},
		{"zset-1000", coll(1000, record.ZSet, 1000), "redis-7.0"},
		{"zset-random-200", random(coll(1000, record.ZSet, 200), 20), "redis-7.0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkDataset(t, c.d, c.target) })
	}
}

// Integer strings 0 to 9999 are shared objects, unless maxmemory with an LRU or LFU policy
// gives every key its own.
func TestEstimateSharedIntegers(t *testing.T) {
	d := dataset.Config{Count: 9999, KeyPrefix: "", KeyStart: 1} // values "1" … "9999"
	path := servertest.GenerateFile(t, &d, encoder.Options{})
	for _, c := range []struct {
		name string
		args []string
		opts memory.Options
	}{
		{"shared", nil, memory.Options{}},
		{"lru", []string{"--maxmemory", "1gb", "--maxmemory-policy", "allkeys-lru"}, memory.Options{NoSharedIntegers: true}},
		{"noeviction", []string{"--maxmemory", "1gb"}, memory.Options{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := memory.New(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.WriteTo(context.Background(), e); err != nil {
				t.Fatal(err)
			}
			r, err := e.Result()
			if err != nil {
				t.Fatal(err)
			}
			compare(t, r, measure(t, path, c.args...))
		})
	}
}

// The 10M default dataset: rdbgen's main job. It takes the server about 10 s and 1 GiB.
func TestEstimateDefault10M(t *testing.T) {
	if testing.Short() {
		t.Skip("10M keys: run without -short")
	}
	checkDataset(t, dataset.Config{Count: 10_000_000, KeyPrefix: "key", KeyStart: 100000001}, "")
}

// Each example spec, scaled down where big.
func TestEstimateExamples(t *testing.T) {
	for name, s := range servertest.ExampleSpecs(t, "../examples") {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dump.rdb")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := output.Write(context.Background(), f, s, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}}); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			compare(t, estimate(t, s, memory.DefaultTarget), measure(t, path))
		})
	}
}

// noHint passes records on without the databases' counts, as a source that does not know
// them up front does: the file has no RESIZEDB, and the server grows its dicts as it loads.
type noHint struct{ record.Sink }

func (s noHint) BeginDB(db int, _ record.Counts) error { return s.Sink.BeginDB(db, record.Counts{}) }

type noHintSource struct{ record.Source }

func (s noHintSource) WriteTo(ctx context.Context, sink record.Sink) error {
	return s.Source.WriteTo(ctx, noHint{sink})
}

// Without RESIZEDB the main dict doubles as keys arrive, to the same final size.
func TestEstimateNoResizeDB(t *testing.T) {
	for _, n := range []uint64{100_000, 150_000} {
		t.Run(strconv.FormatUint(n, 10), func(t *testing.T) {
			src := noHintSource{&dataset.Config{Count: n, KeyPrefix: "key", KeyStart: 1}}
			path := filepath.Join(t.TempDir(), "dump.rdb")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			w, err := rdbsink.NewWriter(f, encoder.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := src.WriteTo(context.Background(), w); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			est, m := estimate(t, src, ""), measure(t, path)
			compare(t, est, m)
			// The old bucket array is either still there or freed: one of the two is close.
			near := func(want int64) bool { return math.Abs(float64(m.Bytes-want)) < 0.01*float64(want) }
			if est.Rehashing == 0 || !near(est.Bytes) && !near(est.Bytes+est.Rehashing) {
				t.Errorf("measured %d is neither the rehashed %d nor the rehashing %d", m.Bytes, est.Bytes, est.Bytes+est.Rehashing)
			}
		})
	}
}
