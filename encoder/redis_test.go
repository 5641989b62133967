package encoder

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/hdt3213/rdb/model"
)

// serverArgs returns the redis-server settings of limits that Redis 7.0 knows.
func serverArgs(limits *Thresholds) []string {
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

// TestCollectionsLoadInRedis writes every collection case for RDB 7, 9 and 10 (what the
// installed Redis 7.0 reads), checks the file with redis-check-rdb, loads it into
// redis-server configured with the same thresholds, and reads every key back: its content,
// the encoding Redis reports, and, for lists, that the quicklist nodes are the ones Redis
// builds itself from RPUSH.
func TestCollectionsLoadInRedis(t *testing.T) {
	check := needRedis(t, "redis-check-rdb")
	cases := collectionCases()
	for _, v := range []int{7, 9, 10} {
		for limits, names := range casesByLimits(cases) {
			dir := t.TempDir()
			path := filepath.Join(dir, "dump.rdb")
			must(t, os.WriteFile(path, writeFile(t, v, limits, cases, names), 0o644))
			if out, err := exec.Command(check, path).CombinedOutput(); err != nil {
				t.Fatalf("redis-check-rdb on RDB %d: %v\n%s", v, err, out)
			}
			r := startRedis(t, dir, serverArgs(limits)...)
			if got, _ := r.do("DBSIZE"); len(got) != 1 || got[0] != strconv.Itoa(len(names)) {
				t.Fatalf("RDB %d: DBSIZE %v, want %d", v, got, len(names))
			}
			for _, name := range names {
				t.Run(name+"/v"+strconv.Itoa(v), func(t *testing.T) {
					c := cases[name]
					checkInRedis(t, r, name, c)
					if enc, err := r.do("OBJECT", "ENCODING", name); err != nil || enc[0] != c.redis {
						t.Errorf("OBJECT ENCODING %v (%v), want %s", enc, err, c.redis)
					}
					if c.kind == "list" && v == 10 {
						checkNodesLikeRedis(t, r, dir, name, c)
					}
				})
			}
		}
	}
}

// checkInRedis reads key back with the command of its type and compares it with c.
func checkInRedis(t *testing.T, r *redisConn, key string, c testCollection) {
	t.Helper()
	switch c.kind {
	case "hash":
		got, err := r.do("HGETALL", key)
		must(t, err)
		fields := map[string]string{}
		for i := 0; i+1 < len(got); i += 2 {
			fields[got[i]] = got[i+1]
		}
		if len(fields) != len(c.names) {
			t.Fatalf("HGETALL: %d fields, want %d", len(fields), len(c.names))
		}
		for i, f := range c.names {
			if fields[f] != c.values[i] {
				t.Fatalf("HGETALL: field %q = %.40q, want %.40q", f, fields[f], c.values[i])
			}
		}
	case "set":
		got, err := r.do("SMEMBERS", key)
		must(t, err)
		want := slices.Clone(c.names)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("SMEMBERS %.200q, want %.200q", got, want)
		}
	case "zset":
		got, err := r.do("ZRANGE", key, "0", "-1", "WITHSCORES")
		must(t, err)
		type entry struct {
			member string
			score  float64
		}
		want := make([]entry, len(c.names))
		for i, m := range c.names {
			want[i] = entry{m, c.scores[i]}
		}
		slices.SortFunc(want, func(a, b entry) int {
			if a.score != b.score {
				return map[bool]int{true: -1, false: 1}[a.score < b.score]
			}
			return map[bool]int{true: -1, false: 1}[a.member < b.member]
		})
		if len(got) != 2*len(want) {
			t.Fatalf("ZRANGE: %d replies, want %d", len(got), 2*len(want))
		}
		for i, e := range want {
			score, err := strconv.ParseFloat(got[2*i+1], 64)
			if got[2*i] != e.member || err != nil || score != e.score && !(math.IsInf(score, 0) && score == e.score) {
				t.Fatalf("ZRANGE entry %d: %q %s, want %q %v", i, got[2*i], got[2*i+1], e.member, e.score)
			}
		}
	case "list":
		got, err := r.do("LRANGE", key, "0", "-1")
		must(t, err)
		if !slices.Equal(got, c.names) {
			t.Fatalf("LRANGE: %d elements %.100q, want %d %.100q", len(got), got, len(c.names), c.names)
		}
	}
}

// checkNodesLikeRedis compares the quicklist nodes of key with those Redis builds when the
// same elements are pushed with RPUSH: Redis saves both to dir/dump.rdb, and the parser
// reports each node's entries.
func checkNodesLikeRedis(t *testing.T, r *redisConn, dir, key string, c testCollection) {
	t.Helper()
	copyKey := "rpush:" + key
	defer r.do("DEL", copyKey)
	if _, err := r.do(append([]string{"RPUSH", copyKey}, c.names...)...); err != nil {
		t.Fatal(err)
	}
	if _, err := r.do("SAVE"); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join(dir, "dump.rdb"))
	must(t, err)
	objs := parseObjects(t, file)
	nodes := func(k string) []int {
		detail := objs[k].(*model.ListObject).Extra.(*model.Quicklist2Detail)
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
