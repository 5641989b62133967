package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/moduletest"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// moduleDumps is the directory of the dump that redis-server 7.0.15 wrote with rdbgen's test
// module, with the script that remakes it (see its README).
const moduleDumps = "../../rdb/decoder/testdata/modules"

// moduleRows are the paths of TestConformanceModules: convert to each target the local
// redis-server loads, import, load by every method and --format resp. Module AUX data has no
// command: the paths through commands must refuse it, naming the module and
// --drop-module-aux, and with the flag carry every key.
var moduleRows = []conformanceRow{
	{name: "convert --target redis-5.0", kind: toFile, args: []string{"convert", "--target", "redis-5.0"}},
	{name: "convert --target redis-6.2", kind: toFile, args: []string{"convert", "--target", "redis-6.2"}},
	{name: "convert --target redis-7.0", kind: toFile, args: []string{"convert", "--target", "redis-7.0"}},
	{name: "import --target redis-7.0", kind: toFile, args: []string{"import", "--target", "redis-7.0"}},
	{name: "import (default target)", kind: toFile, args: []string{"import"}},
	{name: "load --method sequential", kind: online, args: []string{"load", "--method", "sequential"}},
	{name: "load --method parallel", kind: online, args: []string{"load", "--method", "parallel", "--workers", "4"}},
	{name: "load --method pipeline", kind: online, args: []string{"load", "--method", "pipeline", "--workers", "3", "--batch", "2"}},
	{name: "load --method mass", kind: online, args: []string{"load", "--method", "mass"}},
	{name: "convert --format resp --target redis-7.0", kind: toRESP, args: []string{"convert", "--format", "resp", "--target", "redis-7.0"}},
	{name: "convert --format resp --target redis-6.2", kind: toRESP, args: []string{"convert", "--format", "resp", "--target", "redis-6.2"}},
}

// TestConformanceModules puts dumps with module values and module AUX data that
// redis-server 7.0.15 wrote with rdbgen's test module (the committed one of
// rdb/decoder/testdata/modules and one its make.sh writes now) through every reading path of
// the CLI, and compares the result with a server with the module started on the dump:
// DEBUG DIGEST (the module's digest callback), every key's DEBUG DIGEST-VALUE and
// PEXPIRETIME, DBSIZE, the module's own MT.GET of every module key and, where an RDB file
// carries it, MT.AUXGET.
func TestConformanceModules(t *testing.T) {
	redistest.RedisServer(t)
	redistest.RedisCLI(t)
	so := moduletest.Build(t)
	args := []string{"--loadmodule", so, "--enable-debug-command", "yes"}
	fresh := t.TempDir()
	if out, err := exec.Command("bash", filepath.Join(moduleDumps, "make.sh"), fresh).CombinedOutput(); err != nil {
		t.Fatalf("make.sh: %v\n%s", err, out)
	}
	dumps := map[string]string{
		"committed modules.rdb": filepath.Join(moduleDumps, "modules.rdb"),
		"fresh modules.rdb":     filepath.Join(fresh, "modules.rdb"),
	}
	target := servertest.StartEmpty(t, args...)
	for _, name := range unionKeys(dumps, nil) {
		dump := dumps[name]
		t.Run(name, func(t *testing.T) {
			ref := servertest.Start(t, dump, args...).Addr
			want, wantMT, wantAux := readState(t, ref), moduleState(t, ref), auxState(t, ref)
			if len(want.expiry[0]) != 5 || len(want.expiry[1]) != 2 || !strings.Contains(wantMT, "0/m:all: [s -42 u 18446744073709551615") ||
				wantAux != "[index definitions trailer data]" {
				t.Fatalf("the server on %s holds %v\n%s\n%s", dump, want.expiry, wantMT, wantAux)
			}
			for _, row := range moduleRows {
				t.Run(row.name, func(t *testing.T) {
					out := filepath.Join(t.TempDir(), "out")
					if row.kind != toFile {
						// No command carries module AUX data: refused, naming the module.
						resetServer(t, target.Addr)
						_, _, err := run(t, t.Context(), row.command(out, target.Addr, dump)...)
						if err == nil || !strings.Contains(err.Error(), `"rdbgen-mt"`) || !strings.Contains(err.Error(), "--drop-module-aux") {
							t.Fatalf("module AUX data: want an error naming the module and --drop-module-aux, got %v", err)
						}
						if left := dirEntries(t, filepath.Dir(out)); len(left) != 0 {
							t.Errorf("refused, but left %v behind", left)
						}
					}
					resetServer(t, target.Addr)
					cmd := row.command(out, target.Addr, dump)
					if row.kind != toFile {
						cmd = append(cmd[:len(cmd)-1:len(cmd)-1], "--drop-module-aux", dump)
					}
					if _, stderr, err := run(t, t.Context(), cmd...); err != nil {
						t.Fatalf("rdbgen %s: %v\n%s", strings.Join(cmd, " "), err, stderr)
					}
					addr := target.Addr
					switch row.kind {
					case toFile:
						addr = servertest.Start(t, out, args...).Addr
						if got := auxState(t, addr); got != wantAux {
							t.Errorf("MT.AUXGET %s, want %s", got, wantAux)
						}
					case toRESP:
						servertest.Pipe(t, addr, out)
					}
					for _, d := range diffState(want, readState(t, addr), stateOptions{}) {
						t.Error(d)
					}
					if got := moduleState(t, addr); got != wantMT {
						t.Errorf("MT.GET:\n%s\nwant\n%s", got, wantMT)
					}
				})
			}
		})
	}
}

// moduleState is MT.GET of every key of the module's type, by db and name.
func moduleState(t *testing.T, addr string) string {
	t.Helper()
	var b strings.Builder
	for db := range 16 {
		c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DB: db})
		keys, err := c.Keys(t.Context(), "*").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range unionKeys(keySet(keys), nil) {
			if c.Type(t.Context(), k).Val() != moduletest.TypeName {
				continue
			}
			v, err := c.Do(t.Context(), "MT.GET", k).Result()
			fmt.Fprintf(&b, "%d/%s: %v %v\n", db, k, v, err)
		}
		c.Close()
	}
	return b.String()
}

// auxState is MT.AUXGET: the module's AUX data before and after the keys.
func auxState(t *testing.T, addr string) string {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
	defer c.Close()
	v, err := c.Do(t.Context(), "MT.AUXGET").Result()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(v)
}

// keySet is the set of keys.
func keySet(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
