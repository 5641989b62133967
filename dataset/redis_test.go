package dataset_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/readback"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// TestRealRedisLoadsGeneratedFiles writes datasets with rdbgen, has redis-check-rdb check each
// file, starts a real redis-server on it and reads the keys back.
func TestRealRedisLoadsGeneratedFiles(t *testing.T) {
	checkRDB := redistest.RedisCheckRDB(t)
	base := time.Now().UnixMilli()
	cases := []struct {
		name string
		d    dataset.Config
		opts encoder.Options
	}{
		{"classic", dataset.Config{Count: 20000, KeyPrefix: "key", KeyStart: 100000001}, encoder.Options{}},
		{"int-valued", dataset.Config{Count: 20000, KeyPrefix: "", KeyStart: 2147473648}, encoder.Options{}},
		{"compressed", dataset.Config{Count: 5000, KeyPrefix: "tenant:acme:service:billing:invoice:"}, encoder.Options{Target: "redis-7.0"}},
		{"uncompressed", dataset.Config{Count: 5000, KeyPrefix: "tenant:acme:service:billing:invoice:"}, encoder.Options{DisableCompression: true}},
		{"random-ttl-db3", dataset.Config{Count: 5000, KeyPrefix: "s:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 300,
			Seed: 11, TTL: time.Hour, TTLJitter: 5 * time.Minute, BaseTimeMS: base, DB: 3}, encoder.Options{Target: "redis-7.0"}},
		{"no-checksum", dataset.Config{Count: 1000, KeyPrefix: "key", KeyStart: 1}, encoder.Options{DisableChecksum: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := servertest.GenerateFile(t, &tc.d, tc.opts)
			if out, err := exec.Command(checkRDB, path).CombinedOutput(); err != nil {
				t.Fatalf("redis-check-rdb: %v\n%s", err, out)
			}

			ctx := context.Background()
			c := servertest.Start(t, path).Client()
			if err := c.Do(ctx, "SELECT", tc.d.DB).Err(); err != nil {
				t.Fatal(err)
			}
			if n, err := c.DBSize(ctx).Result(); err != nil || uint64(n) != tc.d.Count {
				t.Fatalf("DBSIZE = %d, %v; want %d", n, err, tc.d.Count)
			}
			keyspace, err := c.Info(ctx, "keyspace").Result()
			if err != nil {
				t.Fatal(err)
			}
			wantLine := fmt.Sprintf("db%d:keys=%d,expires=%d,", tc.d.DB, tc.d.Count, tc.d.Expires())
			if !strings.Contains(keyspace, wantLine) {
				t.Fatalf("INFO keyspace %q lacks %q", keyspace, wantLine)
			}
			// Sample across the range, first and last included, reading on a fresh
			// connection so SELECT applies.
			conn := c.Conn()
			defer conn.Close()
			conn.Select(ctx, tc.d.DB)
			for _, i := range []uint64{0, 1, tc.d.Count / 3, tc.d.Count / 2, tc.d.Count - 2, tc.d.Count - 1} {
				key := string(tc.d.AppendKey(nil, i))
				got, err := conn.Get(ctx, key).Result()
				if err != nil {
					t.Fatalf("GET %s: %v", key, err)
				}
				if want := string(tc.d.AppendValue(nil, i)); got != want {
					t.Fatalf("GET %s = %q, want %q", key, got, want)
				}
				pttl, err := conn.Do(ctx, "PTTL", key).Int64()
				if err != nil {
					t.Fatal(err)
				}
				if tc.d.TTL == 0 {
					if pttl != -1 {
						t.Fatalf("PTTL %s = %d, want -1", key, pttl)
					}
					continue
				}
				want := tc.d.ExpireAtMS(i) - time.Now().UnixMilli()
				if pttl > want+1000 || pttl < want-60_000 {
					t.Fatalf("PTTL %s = %d, want about %d", key, pttl, want)
				}
			}
			// Keys just outside the range are absent.
			for _, n := range []uint64{tc.d.KeyStart - 1, tc.d.KeyStart + tc.d.Count} {
				key := tc.d.KeyPrefix + strconv.FormatUint(n, 10)
				if exists, _ := conn.Exists(ctx, key).Result(); exists != 0 {
					t.Fatalf("%s exists", key)
				}
			}
		})
	}
}

// TestRealRedisLoadsAMillionKeys loads the default dataset at a size where Redis's table
// pre-sizing and the writer's buffer hand-offs both matter.
func TestRealRedisLoadsAMillionKeys(t *testing.T) {
	redistest.RedisServer(t)
	const n = 1_000_000
	path := servertest.GenerateFile(t, classic(n), encoder.Options{})
	ctx := context.Background()
	c := servertest.Start(t, path).Client()
	if got, err := c.DBSize(ctx).Result(); err != nil || got != n {
		t.Fatalf("DBSIZE = %d, %v; want %d", got, err, n)
	}
	for _, key := range []string{"key100000001", "key100500000", "key101000000"} {
		if got, err := c.Get(ctx, key).Result(); err != nil || got != key {
			t.Fatalf("GET %s = %q, %v", key, got, err)
		}
	}
	if exists, _ := c.Exists(ctx, "key101000001").Result(); exists != 0 {
		t.Fatal("key101000001 exists")
	}
}

// TestCollectionDatasetsInRedis loads generated collection datasets into a real redis-server
// and spot-checks sampled keys against record.Record, as verify does.
func TestCollectionDatasetsInRedis(t *testing.T) {
	redistest.RedisServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, typ := range []record.Type{record.Hash, record.List, record.Set, record.ZSet} {
		for _, target := range []string{"redis-6.2", "redis-7.0"} {
			t.Run(string(typ)+"/"+target, func(t *testing.T) {
				d := dataset.Config{Count: 400, KeyPrefix: "k", KeyStart: 1, Type: typ, Members: dataset.Range{Min: 1, Max: 800},
					Value: dataset.ValueRandom, ValueSize: 40, Seed: 21, TTL: time.Hour, BaseTimeMS: time.Now().UnixMilli()}
				path := filepath.Join(t.TempDir(), "dump.rdb")
				f, err := os.Create(path)
				must(t, err)
				_, err = output.Write(ctx, f, &d, output.Options{Encoder: encoder.Options{Target: target}})
				must(t, err)
				must(t, f.Close())
				inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess})
				must(t, err)
				defer inst.Close(ctx)
				r := inst.Client()
				if n, err := r.DBSize(ctx).Result(); err != nil || n != int64(d.Count) {
					t.Fatalf("DBSIZE %d (%v), want %d", n, err, d.Count)
				}
				for i := uint64(0); i < d.Count; i += 37 {
					readback.SpotCheck(t, ctx, r, d.Record(i))
				}
			})
		}
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
