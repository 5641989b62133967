package memory_test

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/server"
)

var recordServers = flag.Bool("record", false, "measure the recipes on the servers under "+redistest.VersionsDir+" and rewrite testdata/measured.json")

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
// server built under redistest.VersionsDir and rewrites testdata/measured.json, which
// TestEstimateRecorded checks the estimate against (scripts/measure-memory.sh).
func TestRecordMeasurements(t *testing.T) {
	if !*recordServers {
		return // a recording tool, not a check: TestEstimateRecorded is the check
	}
	var all []measurement
	for _, vs := range versionServers {
		bin := filepath.Join(redistest.VersionsDir, vs.server, "redis-server")
		if _, err := os.Stat(bin); err != nil {
			t.Logf("%s not built: not recorded", vs.server)
			continue
		}
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
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(measuredPath, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// measureOn loads path into the redis-server at bin and returns what it holds above the
// same server empty, its version and allocator.
func measureOn(t *testing.T, bin, path string) measurement {
	t.Helper()
	start := func(path string) *server.Instance {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: bin})
		if err != nil {
			t.Fatal(err)
		}
		return inst
	}
	empty := start(servertest.WriteRecords(t, nil, encoder.Options{Target: "redis-5.0"}))
	base := servertest.UsedMemory(t, empty.Client())
	empty.Close(context.Background())
	inst := start(path)
	defer inst.Close(context.Background())
	c := inst.Client()
	info, err := c.Info(context.Background(), "server", "memory").Result()
	if err != nil {
		info, err = c.Info(context.Background()).Result() // before 7.0: one section a call
	}
	if err != nil {
		t.Fatal(err)
	}
	m := measurement{Keys: servertest.KeyCount(t, c), UsedMemory: servertest.UsedMemory(t, c) - base}
	for line := range strings.SplitSeq(info, "\r\n") {
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "redis_version", "valkey_version":
			if m.Version == "" || k == "valkey_version" {
				m.Version = v
			}
		case "mem_allocator":
			m.Allocator = v
		}
	}
	return m
}

// TestEstimateRecorded checks the estimate of every recipe against what real servers of
// each version held (testdata/measured.json, recorded with -record from the servers built
// by hand, which CI has not): within recordedTolerance.
func TestEstimateRecorded(t *testing.T) {
	b, err := os.ReadFile(measuredPath)
	if err != nil {
		t.Fatal(err)
	}
	var all []measurement
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	byName := map[string]recipe{}
	for _, rc := range recipes() {
		byName[rc.name] = rc
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

// checkRecorded fails t when est is more than recordedTolerance off m. A server measured
// while its main dict rehashes holds up to est.Rehashing more: the estimate is then the
// point of [Bytes, Bytes+Rehashing] nearest the measurement.
func checkRecorded(t *testing.T, est memory.Result, m measurement) {
	t.Helper()
	b := min(max(m.UsedMemory, est.Bytes), est.Bytes+est.Rehashing)
	off := float64(b-m.UsedMemory) / float64(m.UsedMemory)
	t.Logf("%s (%s) %s: estimate %d (+%d rehashing), measured %d, ratio %.3f", m.Server, m.Allocator, m.Recipe, est.Bytes, est.Rehashing, m.UsedMemory, float64(b)/float64(m.UsedMemory))
	if est.Keys != m.Keys {
		t.Errorf("estimate counts %d keys, the server held %d", est.Keys, m.Keys)
	}
	if math.Abs(off) > recordedTolerance {
		t.Errorf("%s %s: estimate %d is %+.1f%% off the measured %d (tolerance %.0f%%)", m.Server, m.Recipe, b, 100*off, m.UsedMemory, 100*recordedTolerance)
	}
}

// TestEstimateRecipesLive checks every recipe against Debian's redis-server 7.0 (CI's),
// live, within recordedTolerance.
func TestEstimateRecipesLive(t *testing.T) {
	bin := redistest.RedisServer(t)
	for _, rc := range recipes() {
		if rc.fieldTTL {
			continue
		}
		t.Run(rc.name, func(t *testing.T) {
			path := servertest.WriteSource(t, rc.src(), encoder.Options{Target: "redis-7.0"})
			m := measureOn(t, bin, path)
			m.Server, m.Target, m.Recipe = "redis-7.0 (Debian)", "redis-7.0", rc.name
			est, err := memory.Estimate(context.Background(), rc.src(), memory.Options{Target: m.Target, Allocator: m.Allocator})
			if err != nil {
				t.Fatal(err)
			}
			checkRecorded(t, est, m)
		})
	}
}
