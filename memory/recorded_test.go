package memory_test

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/server"
)

var (
	recordServers = flag.Bool("record", false, "measure the recipes on the servers under "+redistest.VersionsDir+" and rewrite their figures in testdata/measured.json")
	recordOnly    = flag.String("record-servers", "", "with -record, measure only these servers (comma-separated, e.g. redis-7.4.1)")
)

// recordedTolerance is how far an estimate may be from a recorded or live measurement.
const recordedTolerance = 0.05

// measuredPath holds the recorded measurements.
var measuredPath = filepath.Join("testdata", "measured.json")

// A measurement is what a real server held once it loaded a recipe's dataset, written for
// target: used_memory after loading minus used_memory of the same server empty.
type measurement struct {
	Server     string `json:"server"`    // the build: redis-7.2.6
	Version    string `json:"version"`   // INFO redis_version (valkey_version for Valkey)
	Allocator  string `json:"allocator"` // INFO mem_allocator
	Target     string `json:"target"`
	Recipe     string `json:"recipe"`
	Keys       uint64 `json:"keys"`
	UsedMemory int64  `json:"used_memory"`
}

// versionServers are the hand-built servers measured, with the target of each.
var versionServers = []struct{ server, target string }{
	{"redis-5.0.14", "redis-5.0"},
	{"redis-6.2.16", "redis-6.2"},
	{"redis-7.2.6", "redis-7.2"},
	{"redis-7.4.1", "redis-7.4"},
	{"valkey-8.0.1", "valkey-8.0"},
}

// TestRecordMeasurements, run with -record outside CI, measures every recipe on every
// server built under redistest.VersionsDir (or those -record-servers names) and rewrites
// their figures in testdata/measured.json, which TestEstimateRecorded checks the estimate
// against (scripts/measure-memory.sh); the figures of other servers stay.
func TestRecordMeasurements(t *testing.T) {
	if !*recordServers {
		return // a recording tool, not a check: TestEstimateRecorded is the check
	}
	var all []measurement
	measured := map[string]bool{}
	for _, vs := range versionServers {
		bin := filepath.Join(redistest.VersionsDir, vs.server, "redis-server")
		if *recordOnly != "" && !slices.Contains(strings.Split(*recordOnly, ","), vs.server) {
			continue
		}
		if _, err := os.Stat(bin); err != nil {
			t.Logf("%s not built: not recorded", vs.server)
			continue
		}
		measured[vs.server] = true
		for _, rc := range recipes() {
			tg, err := rdb.LookupTarget(vs.target)
			if err != nil {
				t.Fatal(err)
			}
			if rc.fieldTTL && !tg.Can(rdb.HashFieldTTL) {
				continue
			}
			path := servertest.WriteSource(t, rc.src(), encoder.Options{Target: vs.target})
			m := measureOn(t, bin, path)
			m.Server, m.Target, m.Recipe = vs.server, vs.target, rc.name
			t.Logf("%s %s: %d keys, %d bytes", m.Server, m.Recipe, m.Keys, m.UsedMemory)
			all = append(all, m)
		}
	}
	for _, m := range readMeasured(t) {
		if !measured[m.Server] {
			all = append(all, m)
		}
	}
	slices.SortStableFunc(all, func(a, b measurement) int { return cmp.Compare(a.Server, b.Server) })
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(measuredPath, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// measureOn loads path into the redis-server at bin and returns what it holds above the
// same server empty, its version and allocator: both servers are started on a file (the
// empty one on a file of no keys), and read once settled (settled), less what clients take
// (dataMemory), as the estimate claims.
func measureOn(t *testing.T, bin, path string) measurement {
	t.Helper()
	start := func(path string) *server.Instance {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: bin, Args: debugArgs(t, bin)})
		if err != nil {
			t.Fatal(err)
		}
		return inst
	}
	empty := start(servertest.WriteRecords(t, nil, encoder.Options{Target: "redis-5.0"}))
	base := settled(t, empty.Client())
	empty.Close(context.Background())
	inst := start(path)
	defer inst.Close(context.Background())
	c := inst.Client()
	used := settled(t, c)
	info, err := c.Info(context.Background(), "server").Result()
	if err != nil {
		t.Fatal(err)
	}
	m := measurement{Keys: servertest.KeyCount(t, c), UsedMemory: used - base}
	for line := range strings.SplitSeq(info, "\r\n") {
		k, v, _ := strings.Cut(line, ":")
		if k == "redis_version" && m.Version == "" || k == "valkey_version" {
			m.Version = v
		}
	}
	m.Allocator = serverAllocator(t, c)
	return m
}

// serverAllocator returns INFO memory's mem_allocator.
func serverAllocator(t *testing.T, c *redis.Client) string {
	t.Helper()
	info, err := c.Info(context.Background(), "memory").Result()
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "mem_allocator:"); ok {
			return v
		}
	}
	t.Fatalf("no mem_allocator in INFO memory:\n%s", info)
	return ""
}

// debugArgs returns the arguments that let the redis-server at bin run DEBUG: none before
// 7.0, which has no such setting and allows it.
func debugArgs(t *testing.T, bin string) []string {
	t.Helper()
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	_, v, _ := strings.Cut(string(out), " v=")
	if major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0]); major >= 7 {
		return []string{"--enable-debug-command", "yes"}
	}
	return nil
}

// settled returns used_memory once the server has settled: no database dict rehashing
// (DEBUG HTSTATS shows no second table; Redis 7.4 and Valkey 8 grow their dicts as keys
// arrive, RESIZEDB sizing nothing there, and free the old table only when the cron has
// moved every bucket), and the same in three readings 100 ms apart.
func settled(t *testing.T, c *redis.Client) int64 {
	t.Helper()
	last, same := dataMemory(t, c), 0
	for deadline := time.Now().Add(30 * time.Second); same < 2 || rehashing(t, c); {
		if time.Now().After(deadline) {
			t.Fatalf("used_memory still changes or a dict still rehashes after 30 s (last %d)", last)
		}
		time.Sleep(100 * time.Millisecond)
		n := dataMemory(t, c)
		if n == last {
			same++
		} else {
			last, same = n, 0
		}
	}
	return last
}

// dataMemory returns used_memory less what the clients take (MEMORY STATS total.allocated
// less clients.normal): the measuring client's buffers, which the server grows and shrinks
// by the size of its replies, are no part of the data.
func dataMemory(t *testing.T, c *redis.Client) int64 {
	t.Helper()
	v, err := c.Do(context.Background(), "MEMORY", "STATS").Result()
	if err != nil {
		t.Fatal(err)
	}
	stats := map[any]any{} // a map in RESP3, pairs in RESP2 (5.0)
	switch v := v.(type) {
	case map[any]any:
		stats = v
	case []any:
		for i := 0; i+1 < len(v); i += 2 {
			stats[v[i]] = v[i+1]
		}
	}
	total, ok1 := stats["total.allocated"].(int64)
	clients, ok2 := stats["clients.normal"].(int64)
	if !ok1 || !ok2 {
		t.Fatalf("MEMORY STATS has no total.allocated or clients.normal: %v", v)
	}
	return total - clients
}

// rehashing reports whether a dict of a database that INFO keyspace lists has two tables.
func rehashing(t *testing.T, c *redis.Client) bool {
	t.Helper()
	info, err := c.Info(context.Background(), "keyspace").Result()
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(info, "\r\n") {
		name, _, ok := strings.Cut(line, ":keys=")
		if db, ok2 := strings.CutPrefix(name, "db"); ok && ok2 {
			stats, err := c.Do(context.Background(), "DEBUG", "HTSTATS", db).Text()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(stats, "Hash table 1") {
				return true
			}
		}
	}
	return false
}

// TestEstimateRecorded checks the estimate of every recipe against what real servers of
// each version held (testdata/measured.json, recorded with -record from the servers built
// by hand, which CI has not): within recordedTolerance.
func TestEstimateRecorded(t *testing.T) {
	all := readMeasured(t)
	byName := map[string]recipe{}
	for _, rc := range recipes() {
		byName[rc.name] = rc
	}
	// Every recipe is recorded on every server it applies to.
	recorded := map[[2]string]bool{}
	for _, m := range all {
		recorded[[2]string{m.Server, m.Recipe}] = true
	}
	for _, vs := range versionServers {
		tg, err := rdb.LookupTarget(vs.target)
		if err != nil {
			t.Fatal(err)
		}
		for _, rc := range recipes() {
			if !recorded[[2]string{vs.server, rc.name}] && (!rc.fieldTTL || tg.Can(rdb.HashFieldTTL)) {
				t.Errorf("%s not recorded on %s: run scripts/measure-memory.sh record", rc.name, vs.server)
			}
		}
	}
	for _, m := range all {
		t.Run(m.Server+"/"+m.Recipe, func(t *testing.T) {
			rc, ok := byName[m.Recipe]
			if !ok {
				t.Fatalf("recipe %q recorded, not defined", m.Recipe)
			}
			est, err := memory.Estimate(context.Background(), rc.src(), memory.Options{Target: m.Target, Allocator: m.Allocator})
			if err != nil {
				t.Fatal(err)
			}
			checkRecorded(t, est, m)
		})
	}
}

// readMeasured returns the recorded measurements.
func readMeasured(t *testing.T) []measurement {
	t.Helper()
	b, err := os.ReadFile(measuredPath)
	if err != nil {
		t.Fatal(err)
	}
	var all []measurement
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	return all
}

// checkRecorded fails t when est is more than recordedTolerance off m, a settled server
// (est.Rehashing, what a server may hold before it settles, is not counted).
func checkRecorded(t *testing.T, est memory.Result, m measurement) {
	t.Helper()
	b := est.Bytes
	off := float64(b-m.UsedMemory) / float64(m.UsedMemory)
	t.Logf("%s (%s) %s: estimate %d, measured %d, ratio %.3f", m.Server, m.Allocator, m.Recipe, est.Bytes, m.UsedMemory, float64(b)/float64(m.UsedMemory))
	if est.Keys != m.Keys {
		t.Errorf("estimate counts %d keys, the server held %d", est.Keys, m.Keys)
	}
	if math.Abs(off) > recordedTolerance {
		t.Errorf("%s %s: estimate %d is %+.1f%% off the measured %d (tolerance %.0f%%)", m.Server, m.Recipe, b, 100*off, m.UsedMemory, 100*recordedTolerance)
	}
}

// TestEstimateRecipesLive checks every recipe live, within recordedTolerance, against
// Debian's redis-server 7.0 (CI's, which must be there) and each server built under
// redistest.VersionsDir (skipped when not built), with the allocator each names.
func TestEstimateRecipesLive(t *testing.T) {
	type live struct{ name, bin, target string }
	servers := []live{{"redis-7.0 (Debian)", redistest.RedisServer(t), "redis-7.0"}}
	for _, vs := range versionServers {
		servers = append(servers, live{vs.server, filepath.Join(redistest.VersionsDir, vs.server, "redis-server"), vs.target})
	}
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			if _, err := os.Stat(s.bin); err != nil {
				t.Skipf("%s not built under %s", s.name, redistest.VersionsDir)
			}
			tg, err := rdb.LookupTarget(s.target)
			if err != nil {
				t.Fatal(err)
			}
			for _, rc := range recipes() {
				if rc.fieldTTL && !tg.Can(rdb.HashFieldTTL) {
					continue
				}
				t.Run(rc.name, func(t *testing.T) {
					path := servertest.WriteSource(t, rc.src(), encoder.Options{Target: s.target})
					m := measureOn(t, s.bin, path)
					m.Server, m.Target, m.Recipe = s.name, s.target, rc.name
					est, err := memory.Estimate(context.Background(), rc.src(), memory.Options{Target: m.Target, Allocator: m.Allocator})
					if err != nil {
						t.Fatal(err)
					}
					checkRecorded(t, est, m)
				})
			}
		})
	}
}
