package spec_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/readback"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/spec"
	"github.com/redis/go-redis/v9"
)

// TestExampleSpecsInRedis writes every example spec (the two large ones scaled down), has
// redis-check-rdb check the file, loads it into a real redis-server and compares the counts
// of each database and sampled keys of every family (values, members, TTLs) with the spec.
func TestExampleSpecsInRedis(t *testing.T) {
	redistest.RedisServer(t)
	checkRDB := redistest.RedisCheckRDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tests := []struct {
		file   string
		full   uint64  // keys the file describes
		scale  float64 // count scale of the test
		target string
		check  func(t *testing.T, s *spec.Spec, c *redis.Client)
	}{
		{"mass-insert.yaml", 10_000_000, 0.002, "redis-5.0", func(t *testing.T, s *spec.Spec, c *redis.Client) {
			for _, k := range []string{"key100000001", "key100020000"} {
				if v, err := c.Get(ctx, k).Result(); err != nil || v != k {
					t.Fatalf("GET %s = %q, %v", k, v, err)
				}
			}
		}},
		{"spring-data-redis.yaml", 20_001, 1, "redis-7.0", func(t *testing.T, s *spec.Spec, c *redis.Client) {
			if n, err := c.SCard(ctx, "refresh-token").Result(); err != nil || n != 20_000 {
				t.Fatalf("SCARD refresh-token = %d, %v", n, err)
			}
			if ok, err := c.SIsMember(ctx, "refresh-token", "20000").Result(); err != nil || !ok {
				t.Fatalf("SISMEMBER refresh-token 20000 = %v, %v", ok, err)
			}
			h, err := c.HGetAll(ctx, "refresh-token:42").Result()
			if err != nil || h["_class"] != "com.example.auth.RefreshToken" || h["id"] != "42" || len(h["token"]) != 36 {
				t.Fatalf("HGETALL refresh-token:42 = %v, %v", h, err)
			}
			if _, err := time.Parse(time.RFC3339, h["refreshTime"]); err != nil {
				t.Fatalf("refreshTime %q: %v", h["refreshTime"], err)
			}
			if enc, _ := c.ObjectEncoding(ctx, "refresh-token:42").Result(); enc != "listpack" {
				t.Fatalf("OBJECT ENCODING refresh-token:42 = %q, want listpack", enc)
			}
		}},
		{"spring-cache.yaml", 1502, 1, "redis-5.0", func(t *testing.T, s *spec.Spec, c *redis.Client) {
			v, err := c.Get(ctx, "postsCache::allPosts").Result()
			if err != nil || !strings.HasPrefix(v, `["java.util.ArrayList",[{"@class":"com.example.blog.Post","id":1,`) {
				t.Fatalf("GET postsCache::allPosts = %q, %v", v, err)
			}
			if ttl, err := c.PTTL(ctx, "usersCache::7").Result(); err != nil || ttl <= 0 || ttl > time.Minute {
				t.Fatalf("PTTL usersCache::7 = %v, %v; want up to a minute", ttl, err)
			}
		}},
		{"sessions.yaml", 1_000_000, 0.005, "redis-7.0", func(t *testing.T, s *spec.Spec, c *redis.Client) {
			keys, _, err := c.Scan(ctx, 0, "spring:session:sessions:*", 100).Result()
			if err != nil || len(keys) == 0 {
				t.Fatalf("SCAN sessions: %v, %v", keys, err)
			}
			ttl, err := c.PTTL(ctx, keys[0]).Result()
			if err != nil || ttl < 24*time.Minute || ttl > 35*time.Minute {
				t.Fatalf("PTTL %s = %v, %v; want 30m ± 5m", keys[0], ttl, err)
			}
			if n, err := c.HLen(ctx, keys[0]).Result(); err != nil || n != 6 {
				t.Fatalf("HLEN %s = %d, %v", keys[0], n, err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			s := loadExample(t, tc.file)
			if got := s.Keys(); got != tc.full {
				t.Fatalf("the example describes %d keys, want %d", got, tc.full)
			}
			p := s.Params
			p.BaseTimeMS, p.CountScale = time.Now().UnixMilli(), tc.scale
			must(t, s.SetParams(p))
			path := filepath.Join(t.TempDir(), "dump.rdb")
			f, err := os.Create(path)
			must(t, err)
			res, err := output.Write(ctx, f, s, output.Options{Encoder: encoder.Options{Target: tc.target}})
			must(t, err)
			must(t, f.Close())
			if res.Stats.Keys != s.Keys() {
				t.Fatalf("wrote %d keys, want %d", res.Stats.Keys, s.Keys())
			}
			if out, err := exec.Command(checkRDB, path).CombinedOutput(); err != nil {
				t.Fatalf("redis-check-rdb: %v\n%s", err, out)
			}
			inst := servertest.Start(t, path)
			addr := inst.Client().Options().Addr
			dbs, by := s.DBs()
			keyspace, err := inst.Client().Info(ctx, "keyspace").Result()
			must(t, err)
			for _, db := range dbs {
				var keys, expires uint64
				for _, f := range by[db] {
					keys += f.Keys()
					expires += f.Expires()
				}
				if line := fmt.Sprintf("db%d:keys=%d,expires=%d,", db, keys, expires); !strings.Contains(keyspace, line) {
					t.Fatalf("INFO keyspace %q lacks %q", keyspace, line)
				}
				c := redis.NewClient(&redis.Options{Addr: addr, DB: db})
				defer c.Close()
				for _, f := range by[db] {
					step := max(f.Keys()/25, 1)
					for i := uint64(0); i < f.Keys(); i += step {
						rec, err := f.Record(i)
						must(t, err)
						readback.SpotCheck(t, ctx, c, rec)
					}
				}
				if db == dbs[0] {
					tc.check(t, s, c)
				}
			}
		})
	}
}

func loadExample(t *testing.T, name string) *spec.Spec {
	t.Helper()
	path := filepath.Join("..", "examples", name)
	src, err := os.ReadFile(path)
	must(t, err)
	s, err := spec.Parse(path, src)
	must(t, err)
	return s
}

// TestMassInsertSpecIsTheDefaultDataset: the example spec writes the same bytes as
// rdbgen --count.
func TestMassInsertSpecIsTheDefaultDataset(t *testing.T) {
	s := loadExample(t, "mass-insert.yaml")
	p := s.Params
	p.CountScale = 0.0001
	must(t, s.SetParams(p))
	opts := encoder.Options{CreatedAt: time.Unix(1_800_000_000, 0)}
	var fromSpec, fromCount strings.Builder
	_, err := output.Write(context.Background(), &fromSpec, s, output.Options{Encoder: opts})
	must(t, err)
	_, err = output.Write(context.Background(), &fromCount, &dataset.Config{Count: 1000, KeyPrefix: "key", KeyStart: 100000001, Value: dataset.ValueSame}, output.Options{Encoder: opts})
	must(t, err)
	if fromSpec.String() != fromCount.String() {
		t.Fatalf("the spec wrote %d bytes that differ from the %d of --count 1000", fromSpec.Len(), fromCount.Len())
	}
}

// must fails t with err, if not nil.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
