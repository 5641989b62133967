package encoder

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/hdt3213/rdb/model"
	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/server"
)

// serverArgs returns the redis-server settings of limits that Redis 7.0 knows.
func serverArgs(limits *rdb.Thresholds) []string {
	if limits == nil {
		return nil
	}
	i := strconv.Itoa
	return []string{
		"--hash-max-listpack-entries", i(limits.HashMaxListpackEntries), "--hash-max-listpack-value", i(limits.HashMaxListpackValue),
		"--set-max-intset-entries", i(limits.SetMaxIntsetEntries),
		"--zset-max-listpack-entries", i(limits.ZSetMaxListpackEntries), "--zset-max-listpack-value", i(limits.ZSetMaxListpackValue),
		"--list-max-listpack-size", i(limits.ListMaxListpackSize),
	}
}

// redisCheckRDB returns the path of redis-check-rdb, which comes with redis-server.
func redisCheckRDB(t *testing.T) string {
	t.Helper()
	redistest.RedisServer(t)
	path, err := exec.LookPath("redis-check-rdb")
	if err != nil {
		t.Fatalf("redis-server is installed but not redis-check-rdb (apt-get install -y redis-tools): %v", err)
	}
	return path
}

// TestCollectionsLoadInRedis writes every collection case for RDB 7, 9 and 10 (what the
// installed Redis 7.0 reads), checks the file with redis-check-rdb, loads it into
// redis-server configured with the same thresholds, and reads every key back: its content,
// the encoding Redis reports, and, for lists, that the quicklist nodes are the ones Redis
// builds itself from RPUSH.
func TestCollectionsLoadInRedis(t *testing.T) {
	check := redisCheckRDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cases := collectionCases()
	for _, v := range []int{7, 9, 10} {
		for limits, names := range casesByLimits(cases) {
			path := filepath.Join(t.TempDir(), "dump.rdb")
			must(t, os.WriteFile(path, writeFile(t, v, limits, cases, names), 0o644))
			if out, err := exec.Command(check, path).CombinedOutput(); err != nil {
				t.Fatalf("redis-check-rdb on RDB %d: %v\n%s", v, err, out)
			}
			inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, Args: serverArgs(limits)})
			if err != nil {
				t.Fatalf("RDB %d: %v", v, err)
			}
			defer inst.Close(ctx)
			r := inst.Client()
			if n, err := r.DBSize(ctx).Result(); err != nil || n != int64(len(names)) {
				t.Fatalf("RDB %d: DBSIZE %d (%v), want %d", v, n, err, len(names))
			}
			for _, name := range names {
				t.Run(name+"/v"+strconv.Itoa(v), func(t *testing.T) {
					c := cases[name]
					checkInRedis(t, ctx, r, name, c)
					if enc, err := r.ObjectEncoding(ctx, name).Result(); err != nil || enc != c.redis {
						t.Errorf("OBJECT ENCODING %s (%v), want %s", enc, err, c.redis)
					}
					if c.kind == "list" && v == 10 {
						checkNodesLikeRedis(t, ctx, r, name, c)
					}
				})
			}
		}
	}
}

// checkInRedis reads key back with the command of its type and compares it with c.
func checkInRedis(t *testing.T, ctx context.Context, r *redis.Client, key string, c testCollection) {
	t.Helper()
	switch c.kind {
	case "hash":
		fields, err := r.HGetAll(ctx, key).Result()
		must(t, err)
		if len(fields) != len(c.names) {
			t.Fatalf("HGETALL: %d fields, want %d", len(fields), len(c.names))
		}
		for i, f := range c.names {
			if fields[f] != c.values[i] {
				t.Fatalf("HGETALL: field %q = %.40q, want %.40q", f, fields[f], c.values[i])
			}
		}
	case "set":
		got, err := r.SMembers(ctx, key).Result()
		must(t, err)
		want := slices.Clone(c.names)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("SMEMBERS %.200q, want %.200q", got, want)
		}
	case "zset":
		got, err := r.ZRangeWithScores(ctx, key, 0, -1).Result()
		must(t, err)
		want := make([]redis.Z, len(c.names))
		for i, m := range c.names {
			want[i] = redis.Z{Member: m, Score: c.scores[i]}
		}
		slices.SortFunc(want, func(a, b redis.Z) int {
			if a.Score != b.Score {
				return map[bool]int{true: -1, false: 1}[a.Score < b.Score]
			}
			return map[bool]int{true: -1, false: 1}[a.Member.(string) < b.Member.(string)]
		})
		if len(got) != len(want) {
			t.Fatalf("ZRANGE: %d members, want %d", len(got), len(want))
		}
		for i, e := range want {
			g := got[i]
			if g.Member != e.Member || g.Score != e.Score && !(math.IsInf(g.Score, 0) && g.Score == e.Score) {
				t.Fatalf("ZRANGE entry %d: %v %v, want %v %v", i, g.Member, g.Score, e.Member, e.Score)
			}
		}
	case "list":
		got, err := r.LRange(ctx, key, 0, -1).Result()
		must(t, err)
		if !slices.Equal(got, c.names) {
			t.Fatalf("LRANGE: %d elements %.100q, want %d %.100q", len(got), got, len(c.names), c.names)
		}
	}
}

// checkNodesLikeRedis compares the quicklist nodes of key with those Redis builds when the
// same elements are pushed with RPUSH: DUMP serializes both, and the parser reports each
// node's entries.
func checkNodesLikeRedis(t *testing.T, ctx context.Context, r *redis.Client, key string, c testCollection) {
	t.Helper()
	copyKey := "rpush:" + key
	defer r.Del(ctx, copyKey)
	elements := make([]any, len(c.names))
	for i, e := range c.names {
		elements[i] = e
	}
	must(t, r.RPush(ctx, copyKey, elements...).Err())
	nodes := func(k string) []int {
		o := parseDump(t, ctx, r, k)
		detail := o.(*model.ListObject).Extra.(*model.Quicklist2Detail)
		counts := make([]int, len(detail.ListPackEntrySize))
		for i, entries := range detail.ListPackEntrySize {
			counts[i] = len(entries)
		}
		return counts
	}
	if got, want := nodes(key), nodes(copyKey); !slices.Equal(got, want) {
		t.Errorf("elements per node %v, Redis builds %v", got, want)
	}
}

// parseDump reads key's DUMP payload (type byte, value, RDB version, CRC) with the parser, by
// wrapping the value in a file of the server's RDB version.
func parseDump(t *testing.T, ctx context.Context, r *redis.Client, key string) model.RedisObject {
	t.Helper()
	payload, err := r.Dump(ctx, key).Result()
	must(t, err)
	p := []byte(payload)
	version := int(p[len(p)-10]) | int(p[len(p)-9])<<8
	var file bytes.Buffer
	w, err := NewWriter(&file, Options{RDBVersion: version, DisableChecksum: true})
	must(t, err)
	must(t, w.BeginDB(0, DBInfo{}))
	w.appendRecordHeader([]byte(key), 0, p[0])
	w.buf = append(w.buf, p[1:len(p)-10]...)
	must(t, w.Close())
	return parseObjects(t, file.Bytes())[key]
}
