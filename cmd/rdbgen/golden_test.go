package main

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt with the hashes of TestGoldenOutputs")

const (
	// goldenFile holds the hashes of TestGoldenOutputs, one output a line.
	goldenFile = "testdata/golden.txt"
	// goldenBaseTime is every case's --base-time: late enough that no key has expired when
	// the test's server loads it, and before the dumps' expiries (2100), which a RESP stream
	// leaves out once they have passed.
	goldenBaseTime = "2099-01-01T00:00:00Z"
	// serverRDB is the newest RDB version the local redis-server (7.0) loads.
	serverRDB = 10
)

// A goldenCase is one command line whose outputs are pinned.
type goldenCase struct {
	name  string
	args  []string // the command and its flags, without -o, -q and --base-time
	input string   // the command's input, a path from the package's directory; none for generate
	from  string   // or the earlier case whose output is the input
	out   string   // the output: a file (and its manifest), or a directory with --cluster-shards
	// keys are the keys of each database a server holds once it has loaded every output;
	// nil: as many as a server started on input holds.
	keys map[int]int64
}

// goldenCases are the datasets of issue 23 and more: every type, each target's RDB version,
// TTLs, specs, convert of dumps a server wrote to each target, --format resp and shards.
func goldenCases() []goldenCase {
	hashTTL := []string{"--type", "hash", "--members", "1-40", "--ttl", "1h", "--ttl-jitter", "10m", "--target", "redis-7.0"}
	cs := []goldenCase{
		{name: "default-1M", args: []string{"--count", "1000000"}, keys: map[int]int64{0: 1_000_000}},
		{name: "hash-ttl-redis-7.0", args: append([]string{"--count", "100000"}, hashTTL...), keys: map[int]int64{0: 100_000}},
		{name: "zset-random-redis-7.2", args: []string{"--count", "20000", "--type", "zset", "--members", "1-300", "--value", "random", "--target", "redis-7.2"}},
		{name: "stream-redis-7.4", args: []string{"--count", "2000", "--type", "stream", "--members", "1-500", "--target", "redis-7.4"}},
		{name: "list-valkey-8.0", args: []string{"--count", "100", "--type", "list", "--members", "1-20000", "--target", "valkey-8.0"}},
		{name: "set-random-redis-5.0", args: []string{"--count", "3000", "--type", "set", "--members", "1-700", "--value", "random", "--target", "redis-5.0"}, keys: map[int]int64{0: 3000}},
		{name: "spec-spring-data-redis", args: []string{"--spec", "../../examples/spring-data-redis.yaml", "--target", "redis-7.0"}, keys: map[int]int64{0: 20_001}},
		{name: "spec-sessions", args: []string{"--spec", "../../examples/sessions.yaml", "--target", "redis-7.0"}, keys: map[int]int64{1: 1_000_000}},
		{name: "shards-hash-ttl", args: append([]string{"--count", "100000", "--cluster-shards", "3"}, hashTTL...), out: "shards", keys: map[int]int64{0: 100_000}},
		{name: "resp-hash-ttl", args: append([]string{"--format", "resp", "--count", "20000"}, hashTTL...), out: "dump.resp", keys: map[int]int64{0: 20_000}},
		{name: "resp-stream", args: []string{"--format", "resp", "--count", "200", "--type", "stream", "--members", "1-500", "--target", "redis-7.0"}, out: "dump.resp", keys: map[int]int64{0: 200}},
		{name: "convert-default-1M-redis-7.0", args: []string{"convert", "--target", "redis-7.0"}, from: "default-1M", keys: map[int]int64{0: 1_000_000}},
		{name: "convert-stream-redis-7.0", args: []string{"convert", "--target", "redis-7.0"}, from: "stream-redis-7.4", keys: map[int]int64{0: 2000}},
		{name: "convert-set-random-redis-7.2", args: []string{"convert", "--target", "redis-7.2"}, from: "set-random-redis-5.0"},
	}
	targets := []string{"redis-5.0", "redis-6.0", "redis-6.2", "redis-7.0", "redis-7.2", "redis-7.4", "redis-8.0", "redis-8.2", "redis-8.4",
		"valkey-7.2", "valkey-8.0", "valkey-8.1", "valkey-9.0"}
	for _, dump := range []string{"types", "encodings"} {
		input := filepath.Join(conformanceDumps, dump+".rdb")
		for _, target := range targets {
			args := []string{"convert", "--target", target}
			if target < "redis-7.0" { // RDB 9: no functions
				args = append(args, "--drop-functions")
			}
			cs = append(cs, goldenCase{name: "convert-" + dump + "-" + target, args: args, input: input})
		}
	}
	types := filepath.Join(conformanceDumps, "types.rdb")
	return append(cs,
		goldenCase{name: "convert-types-resp-redis-7.0", args: []string{"convert", "--format", "resp", "--target", "redis-7.0"}, input: types, out: "dump.resp"},
		goldenCase{name: "convert-types-resp-redis-5.0", args: []string{"convert", "--format", "resp", "--target", "redis-5.0", "--drop-functions"}, input: types, out: "dump.resp"},
		goldenCase{name: "convert-shards-hash-ttl", args: []string{"convert", "--target", "redis-7.0", "--cluster-shards", "3"}, from: "hash-ttl-redis-7.0", out: "shards", keys: map[int]int64{0: 100_000}},
	)
}

// TestGoldenOutputs runs each of goldenCases with a fixed --base-time and compares the
// SHA-256 of every output, the tool's version left out (golden_norm_test.go), with
// testdata/golden.txt; -update rewrites the lines of the cases that ran. Each output the local
// redis-server can load is loaded (RESP through redis-cli --pipe), and the server must hold the
// case's keys in each database, so that the pinned bytes are known to load.
func TestGoldenOutputs(t *testing.T) {
	redistest.RedisServer(t)
	redistest.RedisCLI(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	outputs := map[string]string{} // a case's output path, by case name
	got := map[string]string{}     // hash by case/file
	ran := map[string]bool{}
	sources := map[string]map[int]int64{} // the keys a server holds on an input
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			ran[c.name] = true
			dir := filepath.Join(work, c.name)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, cmp.Or(c.out, "dump.rdb"))
			args := append(slices.Clone(c.args), "-q", "--base-time", goldenBaseTime, "-o", out)
			input := c.input
			switch {
			case c.from != "":
				if input = outputs[c.from]; input == "" {
					t.Fatalf("no output of case %q, the input", c.from)
				}
			case input != "":
				if input, err = filepath.Abs(input); err != nil {
					t.Fatal(err)
				}
			}
			if input != "" {
				args = append(args, input)
			}
			if _, stderr, err := run(t, context.Background(), args...); err != nil {
				t.Fatalf("rdbgen %s: %v\n%s", strings.Join(args, " "), err, stderr)
			}
			outputs[c.name] = out
			files, loadable := hashOutputs(t, out, root, work)
			for name, sum := range files {
				got[c.name+"/"+name] = sum
			}
			if len(loadable) == 0 {
				return
			}
			want := c.keys
			if want == nil {
				if _, ok := sources[input]; !ok {
					sources[input] = keyspace(t, servertest.Start(t, input).Client())
				}
				want = sources[input]
			}
			held := map[int]int64{}
			for _, f := range loadable {
				var c *redis.Client
				if strings.HasSuffix(f, ".resp") {
					inst := servertest.StartEmpty(t)
					servertest.Pipe(t, inst.Addr, f)
					c = inst.Client()
				} else {
					c = servertest.Start(t, f).Client()
				}
				for db, n := range keyspace(t, c) {
					held[db] += n
				}
			}
			if !maps.Equal(held, want) {
				t.Errorf("the server holds %v keys by db, want %v", held, want)
			}
		})
	}
	checkGolden(t, got, ran)
}

// hashOutputs returns the normalized hash of each file at out (a file and its manifest, or a
// directory of them) by name, and the paths of those the local redis-server can load.
func hashOutputs(t *testing.T, out, root, work string) (map[string]string, []string) {
	t.Helper()
	paths := []string{out}
	if st, err := os.Stat(out); err != nil {
		t.Fatal(err)
	} else if st.IsDir() {
		es, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		paths = nil
		for _, e := range es {
			paths = append(paths, filepath.Join(out, e.Name()))
		}
	} else if _, err := os.Stat(out + ".manifest.json"); err == nil {
		paths = append(paths, out+".manifest.json")
	}
	sums := map[string]string{}
	facts := map[string]rdbFacts{}
	var loadable []string
	for _, p := range paths { // a file's manifest sorts after it
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var sum string
		switch name := filepath.Base(p); {
		case strings.HasSuffix(name, ".rdb"):
			var f rdbFacts
			if sum, f, err = normalizeRDB(data); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			facts[p] = f
			if f.version <= serverRDB {
				loadable = append(loadable, p)
			}
		case strings.HasSuffix(name, ".manifest.json"):
			f, ok := facts[strings.TrimSuffix(p, ".manifest.json")]
			if !ok {
				t.Fatalf("%s: a manifest of no RDB file", p)
			}
			if sum, err = normalizeManifest(data, f, root, work); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
		case strings.HasSuffix(name, ".resp"):
			h := sha256.Sum256(data)
			sum = hex.EncodeToString(h[:])
			loadable = append(loadable, p)
		default:
			t.Fatalf("%s: an output of no known kind", p)
		}
		sums[filepath.Base(p)] = sum
	}
	return sums, loadable
}

// keyspace returns the keys of each database of the server c talks to, from INFO keyspace.
func keyspace(t *testing.T, c *redis.Client) map[int]int64 {
	t.Helper()
	info, err := c.Info(context.Background(), "keyspace").Result()
	if err != nil {
		t.Fatal(err)
	}
	dbs := map[int]int64{}
	for line := range strings.SplitSeq(info, "\r\n") {
		db, kv, ok := strings.Cut(strings.TrimPrefix(line, "db"), ":keys=")
		if !ok || !strings.HasPrefix(line, "db") {
			continue
		}
		keys, _, _ := strings.Cut(kv, ",")
		d, err1 := strconv.Atoi(db)
		n, err2 := strconv.ParseInt(keys, 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("INFO keyspace line %q", line)
		}
		dbs[d] = n
	}
	return dbs
}

// checkGolden compares got (hashes by case/file) with goldenFile for the cases that ran, or
// with -update writes their lines into it.
func checkGolden(t *testing.T, got map[string]string, ran map[string]bool) {
	t.Helper()
	want := map[string]string{}
	if f, err := os.Open(goldenFile); err == nil {
		s := bufio.NewScanner(f)
		for s.Scan() {
			if line := s.Text(); line != "" && !strings.HasPrefix(line, "#") {
				name, sum, _ := strings.Cut(line, " ")
				want[name] = sum
			}
		}
		f.Close()
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
	} else if !*update {
		t.Fatal(err)
	}
	caseOf := func(name string) string { c, _, _ := strings.Cut(name, "/"); return c }
	if *update {
		if t.Failed() {
			t.Fatalf("%s not rewritten: a case failed", goldenFile)
		}
		maps.DeleteFunc(want, func(name, _ string) bool { return ran[caseOf(name)] })
		maps.Copy(want, got)
		var b strings.Builder
		b.WriteString("# SHA-256 of each output of TestGoldenOutputs (golden_test.go), the tool's version left out\n" +
			"# (golden_norm_test.go). go test ./cmd/rdbgen -run TestGoldenOutputs -update rewrites it.\n")
		for _, name := range slices.Sorted(maps.Keys(want)) {
			fmt.Fprintf(&b, "%s %s\n", name, want[name])
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name := range maps.Keys(want) {
		if !ran[caseOf(name)] {
			delete(want, name)
		}
	}
	for _, name := range unionKeys(got, want) {
		switch g, w := got[name], want[name]; {
		case w == "":
			t.Errorf("%s: a new output (sha256 %s); -update adds it", name, g)
		case g == "":
			t.Errorf("%s: not written (golden sha256 %s)", name, w)
		case g != w:
			t.Errorf("%s: sha256 %s, golden %s: the output changed", name, g, w)
		}
	}
}
