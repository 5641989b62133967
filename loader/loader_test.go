package loader_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// withTTL returns d with an expiry an hour from now, spread by a minute.
func withTTL(d dataset.Config) dataset.Config {
	d.TTL, d.TTLJitter, d.BaseTimeMS = time.Hour, time.Minute, time.Now().UnixMilli()
	return d
}

var (
	// plain is the classic dataset: values equal to the keys.
	plain = dataset.Config{Count: 2000, KeyPrefix: "key", KeyStart: 100000001}
	// random has random values, expiries and a db other than 0; its keys
	// cross from 3 to 4 digits.
	random = withTTL(dataset.Config{Count: 3000, KeyPrefix: "r:", KeyStart: 0,
		Value: dataset.ValueRandom, ValueSize: 100, Seed: 7, DB: 3})
	// big has values larger than the mass loader's buffers.
	big = dataset.Config{Count: 40, KeyPrefix: "big", KeyStart: 1,
		Value: dataset.ValueRandom, ValueSize: 200 << 10, Seed: 3, DB: 15}
)

// TestLoadPutsEveryKey loads datasets with each method into a fresh server and
// checks every key, its value and its expiry with verify's live check, and
// that SET … PXAT gives each key exactly the dataset's expiry.
func TestLoadPutsEveryKey(t *testing.T) {
	tests := []struct {
		name string
		d    dataset.Config
		opts loader.Options
	}{
		{"sequential", plain, loader.Options{Method: loader.Sequential}},
		{"sequential random ttl db 3", random, loader.Options{Method: loader.Sequential}},
		{"parallel default workers", random, loader.Options{Method: loader.Parallel}},
		{"parallel 7 workers px", random, loader.Options{Method: loader.Parallel, Workers: 7, Expiry: resp.ExpiryRelative}},
		{"pipeline defaults", random, loader.Options{}},
		{"pipeline batch 1", plain, loader.Options{Method: loader.Pipeline, Batch: 1}},
		{"pipeline uneven batches, 3 workers", random, loader.Options{Method: loader.Pipeline, Batch: 77, Workers: 3}},
		{"pipeline big values", big, loader.Options{Method: loader.Pipeline, Batch: 16, Workers: 2}},
		{"mass", plain, loader.Options{Method: loader.Mass}},
		{"mass random ttl db 3", random, loader.Options{Method: loader.Mass}},
		{"mass px", random, loader.Options{Method: loader.Mass, Expiry: resp.ExpiryRelative}},
		{"mass big values", big, loader.Options{Method: loader.Mass}},
		{"restore random ttl db 3", random, loader.Options{Method: loader.Restore}},
		{"restore 3 workers px", random, loader.Options{Method: loader.Restore, Workers: 3, Expiry: resp.ExpiryRelative}},
		{"restore big values", big, loader.Options{Method: loader.Restore}},
		{"mass no keys", dataset.Config{KeyPrefix: "k", DB: 1}, loader.Options{Method: loader.Mass}},
		{"parallel no keys", dataset.Config{KeyPrefix: "k"}, loader.Options{Method: loader.Parallel, Workers: 3}},
		{"more workers than keys", dataset.Config{Count: 3, KeyPrefix: "k"}, loader.Options{Method: loader.Parallel, Workers: 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst := servertest.StartEmpty(t)
			opts := tt.opts
			opts.Addr = inst.Addr
			var reports []record.Progress
			opts.Progress = func(p record.Progress) { reports = append(reports, p) }
			res, err := loader.Load(t.Context(), &tt.d, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Keys != tt.d.Count || res.Expires != tt.d.Expires() {
				t.Fatalf("result %+v, want %d keys, %d with expiry", res, tt.d.Count, tt.d.Expires())
			}
			if res.Duration <= 0 || res.Workers < 1 || res.Batch < 1 || res.Method == "" {
				t.Fatalf("result %+v", res)
			}
			if last := reports[len(reports)-1]; last.Keys != tt.d.Count || last.Total != tt.d.Count {
				t.Fatalf("last progress %+v", last)
			}
			servertest.Verify(t, inst.Addr, manifestOf(&tt.d, time.Now()))
			if opts.Expiry != resp.ExpiryRelative {
				servertest.CheckExpiries(t, inst.Addr, &tt.d)
			}
		})
	}
}

// TestLoadIsIdempotent loads the same dataset twice: the second load sets the
// same keys again, and the server holds the dataset, no more.
func TestLoadIsIdempotent(t *testing.T) {
	inst := servertest.StartEmpty(t)
	for _, m := range loader.Methods() {
		// restore replaces the keys only when told to; TestRestoreBusyKey loads without.
		if _, err := loader.Load(t.Context(), &random, loader.Options{Addr: inst.Addr, Method: m, Replace: m == loader.Restore}); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	servertest.Verify(t, inst.Addr, manifestOf(&random, time.Now()))
	servertest.CheckExpiries(t, inst.Addr, &random)
}

func TestLoadRefusesBadOptions(t *testing.T) {
	tests := []struct {
		name string
		d    dataset.Config
		opts loader.Options
		want string
	}{
		{"unknown method", plain, loader.Options{Method: "telepathy"}, `method "telepathy" (known: sequential, parallel, pipeline, mass, restore, auto)`},
		{"replace without restore", plain, loader.Options{Method: loader.Mass, Replace: true}, "replace goes with restore"},
		{"restore with a batch", plain, loader.Options{Method: loader.Restore, Batch: 10}, "restore sends no batches"},
		{"sequential with workers", plain, loader.Options{Method: loader.Sequential, Workers: 4}, "sequential uses one connection, not 4 workers"},
		{"mass with workers", plain, loader.Options{Method: loader.Mass, Workers: 2}, "mass uses one connection"},
		{"parallel with a batch", plain, loader.Options{Method: loader.Parallel, Batch: 10}, "parallel sends no batches"},
		{"negative workers", plain, loader.Options{Workers: -1}, "workers -1 out of range"},
		{"too many workers", plain, loader.Options{Workers: loader.MaxWorkers + 1}, "out of range"},
		{"negative batch", plain, loader.Options{Batch: -1}, "batch -1 out of range"},
		{"unknown expiry", plain, loader.Options{Expiry: "later"}, `expiry "later" (known: pxat, px)`},
		{"bad dataset", dataset.Config{Count: 1, Value: "zeros"}, loader.Options{}, `value mode "zeros"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// No server: the options are checked before anything is dialled.
			tt.opts.Addr = "127.0.0.1:1"
			_, err := loader.Load(context.Background(), &tt.d, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// manifestOf returns a manifest of d as loaded into a server at the time at: the counts and
// the dataset, for verify.Server.
func manifestOf(d *dataset.Config, at time.Time) *manifest.Manifest {
	m := &manifest.Manifest{Format: manifest.FormatVersion, Generator: "rdbgen test load", CreatedAt: at.UTC(),
		Keys: d.Count, Expires: d.Expires(), DBs: map[int]record.Counts{}, Dataset: d}
	if d.Count > 0 {
		m.DBs[d.DB] = record.Counts{Keys: d.Count, Expires: d.Expires()}
	}
	return m
}
