package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// conformanceDumps is the directory of the dumps that redis-server 7.0.15 wrote, with the
// script that remakes them (see its README).
const conformanceDumps = "testdata/dumps"

// conformanceLibraries are the function libraries of the dumps (a path that cannot carry
// them must name one of those the server holds).
var conformanceLibraries = []string{"mylib", "counters"}

// pathKind is how a row of TestConformance puts a dump into a server.
type pathKind int

const (
	toFile  pathKind = iota // the command writes an RDB file; a server starts on it
	online                  // the command loads a running server (--addr)
	toRESP                  // the command writes RESP; redis-cli --pipe feeds it to a server
	viaJSON                 // export writes JSON, then import of the JSON writes the RDB file
)

// conformanceRow is one reading path of TestConformance.
type conformanceRow struct {
	name string
	kind pathKind
	args []string // the command and its flags; the output (or --addr) and the dump follow
	// rdb9: the target is a server before 7.0, which has no functions and none of a stream's
	// 7.0 metadata. The path must refuse the dump, naming a library and --drop-functions;
	// with --drop-functions it must carry everything else.
	rdb9 bool
	// live: the input is the server started on the dump (redis://), read by a sync
	// snapshot or, with --via scan in args, key by key; not the file.
	live bool
}

// conformanceRows are the paths: convert to each target the local redis-server 7.0 loads,
// import of the dump, merge of it alone, export then import of the JSON, load by every
// method, --format resp through redis-cli --pipe, and convert of the live server started on
// the dump (by a sync snapshot and --via scan). load of a live server is refused, by design
// for now ("write it to a file first").
var conformanceRows = []conformanceRow{
	{name: "convert --target redis-5.0", kind: toFile, args: []string{"convert", "--target", "redis-5.0"}, rdb9: true},
	{name: "convert --target redis-6.0", kind: toFile, args: []string{"convert", "--target", "redis-6.0"}, rdb9: true},
	{name: "convert --target redis-6.2", kind: toFile, args: []string{"convert", "--target", "redis-6.2"}, rdb9: true},
	{name: "convert --target redis-7.0", kind: toFile, args: []string{"convert", "--target", "redis-7.0"}},
	{name: "import --target redis-7.0", kind: toFile, args: []string{"import", "--target", "redis-7.0"}},
	{name: "import (default target)", kind: toFile, args: []string{"import"}, rdb9: true},
	{name: "load --method sequential", kind: online, args: []string{"load", "--method", "sequential"}},
	{name: "load --method parallel", kind: online, args: []string{"load", "--method", "parallel", "--workers", "4"}},
	{name: "load --method pipeline", kind: online, args: []string{"load", "--method", "pipeline", "--workers", "3", "--batch", "50"}},
	{name: "load --method mass", kind: online, args: []string{"load", "--method", "mass"}},
	{name: "load --method restore", kind: online, args: []string{"load", "--method", "restore", "--workers", "2"}},
	{name: "merge --target redis-7.0", kind: toFile, args: []string{"merge", "--target", "redis-7.0"}},
	{name: "export, import --target redis-7.0", kind: viaJSON, args: []string{"import", "--target", "redis-7.0"}},
	{name: "convert redis:// --target redis-7.0", kind: toFile, args: []string{"convert", "--target", "redis-7.0"}, live: true},
	{name: "convert redis:// --via scan --target redis-7.0", kind: toFile, args: []string{"convert", "--via", "scan", "--target", "redis-7.0"}, live: true},
	{name: "convert --format resp --target redis-7.0", kind: toRESP, args: []string{"convert", "--format", "resp", "--target", "redis-7.0"}},
	{name: "import --format resp --target redis-7.0", kind: toRESP, args: []string{"import", "--format", "resp", "--target", "redis-7.0"}},
	{name: "convert --format resp --target redis-6.2", kind: toRESP, args: []string{"convert", "--format", "resp", "--target", "redis-6.2"}, rdb9: true},
	// Redis 5.0 has no XGROUP CREATECONSUMER: the consumer with no pending entries too.
	{name: "convert --format resp --target redis-5.0", kind: toRESP, args: []string{"convert", "--format", "resp", "--target", "redis-5.0"}, rdb9: true},
}

// TestConformance puts dumps that a real redis-server wrote through every reading path of
// the CLI, and compares what each path gives with what a redis-server started on the dump
// holds: DEBUG DIGEST, FUNCTION LIST WITHCODE, XINFO STREAM FULL of every stream (but the
// consumers' seen-time and active-time, which no client can set, and the radix tree's
// size, which is layout), XPENDING of every group in both forms, and every key's
// PEXPIRETIME. The dumps hold every type (small and large encodings), two function
// libraries, streams with groups, a pending entry whose entry was deleted and a consumer
// with no pending entries, keys with TTLs, keys expired by load time, and four databases:
// those of testdata/dumps, and the same made now by its make.sh with the installed
// redis-server. A path whose target cannot hold something must stop with an error naming
// it and the flag that goes on, write nothing, and with that flag carry everything else. For a
// target before 7.0 (RDB 9) the stream fields RDB 9 has no room for are left out of the
// comparison (entries-added, max-deleted-entry-id, recorded-first-entry-id, and the groups'
// entries-read and lag): a server of the target's version has none of them, and Redis 7.0
// derives them when it loads RDB 9.
func TestConformance(t *testing.T) {
	redistest.RedisServer(t)
	redistest.RedisCLI(t)
	dumps := map[string]string{}
	committed, err := filepath.Glob(filepath.Join(conformanceDumps, "*.rdb"))
	if err != nil || len(committed) == 0 {
		t.Fatalf("no dumps in %s: %v", conformanceDumps, err)
	}
	for _, p := range committed {
		dumps["committed "+filepath.Base(p)] = p
	}
	fresh := t.TempDir()
	made := time.Now()
	if out, err := exec.Command("bash", filepath.Join(conformanceDumps, "make.sh"), fresh).CombinedOutput(); err != nil {
		t.Fatalf("make.sh: %v\n%s", err, out)
	}
	for _, p := range committed {
		dumps["fresh "+filepath.Base(p)] = filepath.Join(fresh, filepath.Base(p))
	}
	// The dumps' expired:* keys expire 2 s after they were set: wait until they have.
	time.Sleep(time.Until(made.Add(2100 * time.Millisecond)))

	target := servertest.StartEmpty(t, "--enable-debug-command", "yes")
	for _, name := range unionKeys(dumps, nil) {
		dump := dumps[name]
		t.Run(name, func(t *testing.T) {
			ref := servertest.Start(t, dump, "--enable-debug-command", "yes")
			want := readState(t, ref.Addr)
			checkReference(t, dump, want)
			for _, row := range conformanceRows {
				t.Run(row.name, func(t *testing.T) {
					in := dump
					if row.live {
						in = "redis://" + ref.Addr
					}
					row.check(t, in, target.Addr, want)
				})
			}
		})
	}
}

// check puts dump through the row's path and compares the result with want.
func (row conformanceRow) check(t *testing.T, dump, addr string, want serverState) {
	o := stateOptions{}
	if row.rdb9 {
		libs := unionKeys(want.functions, nil)
		dir := t.TempDir()
		out := filepath.Join(dir, "refused")
		resetServer(t, addr)
		_, _, err := run(t, t.Context(), row.command(out, addr, dump)...)
		switch {
		case err == nil:
			t.Fatalf("exit 0: the target has no functions, but the dump's libraries %v were not named", libs)
		case !namesLibrary(err.Error(), libs) || !strings.Contains(err.Error(), "--drop-functions"):
			t.Fatalf("the error does not name a library (%v) and --drop-functions: %v", libs, err)
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("refused, but left %v behind in %s", left, dir)
		}
		o = stateOptions{noFunctions: true, rdb9: true}
	}
	out := filepath.Join(t.TempDir(), "out")
	resetServer(t, addr)
	if row.kind == viaJSON {
		exported := filepath.Join(t.TempDir(), "export.json")
		exp := []string{"export", dump, "-q", "-o", exported}
		if row.rdb9 {
			exp = append(exp, "--drop-functions")
		}
		if _, stderr, err := run(t, t.Context(), exp...); err != nil {
			t.Fatalf("rdbgen %s: %v\n%s", strings.Join(exp, " "), err, stderr)
		}
		dump = exported
	}
	args := row.command(out, addr, dump)
	if row.rdb9 {
		args = append(args[:len(args)-1:len(args)-1], "--drop-functions", dump)
	}
	if _, stderr, err := run(t, t.Context(), args...); err != nil {
		t.Fatalf("rdbgen %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	var got serverState
	switch row.kind {
	case toFile, viaJSON:
		got = readState(t, servertest.Start(t, out, "--enable-debug-command", "yes").Addr)
	case online:
		got = readState(t, addr)
	case toRESP:
		servertest.Pipe(t, addr, out)
		got = readState(t, addr)
	}
	for _, d := range diffState(want, got, o) {
		t.Error(d)
	}
}

// command returns the arguments of the row's command: its flags, then the output file (or
// the server's address) and the dump.
func (row conformanceRow) command(out, addr, dump string) []string {
	args := append([]string(nil), row.args...)
	if row.kind == online {
		return append(args, "-q", "--addr", addr, dump)
	}
	return append(args, "-q", "-o", out, dump)
}

// namesLibrary tells whether msg names one of the function libraries libs.
func namesLibrary(msg string, libs []string) bool {
	for _, l := range libs {
		if strings.Contains(msg, l) {
			return true
		}
	}
	return false
}

// resetServer empties the server at addr of keys and functions.
func resetServer(t *testing.T, addr string) {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	if err := c.FlushAll(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.FunctionFlush(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
}

// checkReference checks that the server started on dump holds what the test is about, so
// that a row cannot pass by comparing nothing: both libraries, keys in four databases, keys
// with TTLs, a group with a pending entry whose entry was deleted and a consumer with no
// pending entries; and that the dump held keys already expired, which the server dropped.
func checkReference(t *testing.T, dump string, st serverState) {
	t.Helper()
	if len(st.functions) != len(conformanceLibraries) || len(st.expiry) != 4 {
		t.Fatalf("the server on %s holds %v: want %d libraries and 4 dbs", dump, st, len(conformanceLibraries))
	}
	ttls := 0
	for _, keys := range st.expiry {
		for k, ms := range keys {
			if strings.HasPrefix(k, "expired:") {
				t.Fatalf("the server on %s holds %q, which had expired", dump, k)
			}
			if ms > 0 {
				ttls++
			}
		}
	}
	if ttls < 5 {
		t.Fatalf("the server on %s holds %d keys with a TTL", dump, ttls)
	}
	g1 := st.streams["0/stream:main"]
	if g1 == nil {
		t.Fatalf("no stream:main in db 0 of %s", dump)
	}
	var deleted, idle bool
	for _, e := range st.entries["0/stream:main/g1"] {
		deleted = deleted || e.id == "1700000000000-2"
	}
	groups, _ := g1["groups"].([]any)
	for _, g := range groups {
		consumers, _ := g.(map[string]any)["consumers"].([]any)
		for _, c := range consumers {
			c := c.(map[string]any)
			idle = idle || c["name"] == "idle" && c["pel-count"] == int64(0)
		}
	}
	if !deleted || !idle {
		t.Fatalf("stream:main of %s: deleted pending entry %v, idle consumer %v", dump, deleted, idle)
	}
	stdout, _, err := run(t, context.Background(), "inspect", "--json", dump)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Expiry struct {
			Expired uint64 `json:"expired"`
		} `json:"expiry"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Expiry.Expired != 2 {
		t.Fatalf("inspect %s: %d keys already expired (want 2), %v", dump, rep.Expiry.Expired, err)
	}
}
