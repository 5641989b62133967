package rdbgen_test

import (
	"bytes"
	"cmp"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// TestCollectionDatasetsInRedis loads generated collection datasets into a real redis-server
// and spot-checks sampled keys against record.Record, as verify does.
func TestCollectionDatasetsInRedis(t *testing.T) {
	redistest.RedisServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, typ := range []record.Type{record.Hash, record.List, record.Set, record.ZSet} {
		for _, target := range []string{"redis-6.2", "redis-7.0"} {
			t.Run(string(typ)+"/"+target, func(t *testing.T) {
				d := dataset.Spec{Count: 400, KeyPrefix: "k", KeyStart: 1, Type: typ, Members: dataset.Range{Min: 1, Max: 800},
					Value: dataset.ValueRandom, ValueSize: 40, Seed: 21, TTL: time.Hour, BaseTimeMS: time.Now().UnixMilli()}
				path := filepath.Join(t.TempDir(), "dump.rdb")
				f, err := os.Create(path)
				must(t, err)
				_, err = rdbgen.Write(ctx, f, &d, rdbgen.Options{Encoder: encoder.Options{Target: target}})
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
					spotCheck(t, ctx, r, d.Record(i))
				}
			})
		}
	}
}

// spotCheck compares one key on the server with the record the dataset describes.
func spotCheck(t *testing.T, ctx context.Context, r *redis.Client, want record.Record) {
	t.Helper()
	key := string(want.Key)
	var got, exp []string
	switch want.Type {
	case record.Hash:
		h, err := r.HGetAll(ctx, key).Result()
		must(t, err)
		for f, v := range h {
			got = append(got, f+"="+v)
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name)+"="+string(m.Value))
		}
	case record.List:
		l, err := r.LRange(ctx, key, 0, -1).Result()
		must(t, err)
		got = l
		for _, m := range want.Members {
			exp = append(exp, string(m.Name))
		}
	case record.Set:
		s, err := r.SMembers(ctx, key).Result()
		must(t, err)
		got = s
		for _, m := range want.Members {
			exp = append(exp, string(m.Name))
		}
	case record.ZSet:
		z, err := r.ZRangeWithScores(ctx, key, 0, -1).Result()
		must(t, err)
		for _, e := range z {
			got = append(got, e.Member.(string)+"="+strconv.FormatFloat(e.Score, 'g', -1, 64))
		}
		ms := slices.Clone(want.Members)
		slices.SortStableFunc(ms, func(a, b record.Member) int { // ZRANGE's order
			if c := cmp.Compare(a.Score, b.Score); c != 0 {
				return c
			}
			return bytes.Compare(a.Name, b.Name)
		})
		for _, m := range ms {
			exp = append(exp, string(m.Name)+"="+strconv.FormatFloat(m.Score, 'g', -1, 64))
		}
	}
	if want.Type == record.Hash || want.Type == record.Set {
		slices.Sort(got)
		slices.Sort(exp)
	}
	if !slices.Equal(got, exp) {
		t.Fatalf("key %q: %d members differ from the %d of the dataset", key, len(got), len(exp))
	}
	if ttl, err := r.PExpireTime(ctx, key).Result(); err != nil || ttl.Milliseconds() != want.ExpireAtMS {
		t.Fatalf("key %q: PEXPIRETIME %v (%v), want %d", key, ttl, err, want.ExpireAtMS)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
