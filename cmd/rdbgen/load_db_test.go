package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
)

// multiDBDump returns a dump that a real server wrote, holding "k" in db 0 and "k3" in db 3.
func multiDBDump(t *testing.T) string {
	return redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "k", "new", 0)
			p.Select(ctx, 3)
			p.Set(ctx, "k3", "three", 0)
			return nil
		})
		return err
	})
}

// TestLoadDB loads each input with --db, --db-map or the database of --url into a server
// whose db 0 holds "k" already: the keys land where the flags say, db 0 keeps its "k", and
// an input of several databases moved by --db is an error naming them.
func TestLoadDB(t *testing.T) {
	dir := t.TempDir()
	jsonFile := filepath.Join(dir, "k.jsonl")
	if err := os.WriteFile(jsonFile, []byte(`{"db":0,"key":"k","type":"string","value":"new"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	twoDBs := filepath.Join(dir, "two.jsonl")
	if err := os.WriteFile(twoDBs, []byte(`{"db":0,"key":"k","type":"string","value":"new"}`+"\n"+`{"db":3,"key":"k3","type":"string","value":"three"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	specFile := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(specFile, []byte("seed: 1\nfamilies:\n  - name: k\n    key: \"k\"\n    count: 1\n    type: string\n    value: new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oneDB := redistest.WriteDump(t, map[string]string{"k": "new"})
	severalDBs := multiDBDump(t)
	// A dump whose libraries come before its db: the pass that lists the dbs takes them too.
	withFunctions := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		if err := c.FunctionLoad(ctx, redistest.FunctionLibraries[0]).Err(); err != nil {
			return err
		}
		return c.Set(ctx, "k", "new", 0).Err()
	})

	tests := []struct {
		name string
		args []string // the server's URL or address follows
		url  string   // path of --url, "" for --addr
		want map[int]map[string]string
		err  string
	}{
		{"dataset", []string{"--count", "1", "--key-prefix", "k", "--key-start", "0", "--db", "5"}, "", map[int]map[string]string{5: {"k0": "k0"}}, ""},
		{"json", []string{jsonFile, "--db", "5"}, "", map[int]map[string]string{5: {"k": "new"}}, ""},
		{"json url", []string{jsonFile}, "/5", map[int]map[string]string{5: {"k": "new"}}, ""},
		{"json url and the same db", []string{jsonFile, "--db", "5"}, "/5", map[int]map[string]string{5: {"k": "new"}}, ""},
		{"json url and another db", []string{jsonFile, "--db", "6"}, "/5", nil, "--db 6 disagrees with the database 5 of --url"},
		{"spec", []string{"--spec", specFile, "--db", "5"}, "", map[int]map[string]string{5: {"k": "new"}}, ""},
		{"dump of one db", []string{oneDB, "--db", "5"}, "", map[int]map[string]string{5: {"k": "new"}}, ""},
		{"dump of one db, url", []string{oneDB}, "/5", map[int]map[string]string{5: {"k": "new"}}, ""},
		{"dump of one db with functions", []string{withFunctions, "--db", "5"}, "", map[int]map[string]string{5: {"k": "new"}}, ""},
		{"dump of two dbs", []string{severalDBs, "--db", "5"}, "", nil, "the input holds databases 0 and 3, and --db 5 moves one: say where each goes with --db-map 0=5,3=N"},
		{"json of two dbs", []string{twoDBs, "--db", "5"}, "", nil, "the input holds databases 0 and 3"},
		{"dump of two dbs, mapped", []string{severalDBs, "--db-map", "0=5,3=6"}, "", map[int]map[string]string{5: {"k": "new"}, 6: {"k3": "three"}}, ""},
		{"dump of two dbs, one mapped", []string{severalDBs, "--db-map", "0=5"}, "", nil, "the input's database 3 has no place in --db-map 0=5: add 3=N"},
		{"dump of two dbs as they are", []string{severalDBs, "--db-map", "0=0,3=3"}, "", map[int]map[string]string{0: {"k": "new"}, 3: {"k3": "three"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst := servertest.StartEmpty(t)
			ctx := context.Background()
			db0 := servertest.Client(t, inst.Addr, 0)
			if err := db0.Set(ctx, "k", "orig", 0).Err(); err != nil {
				t.Fatal(err)
			}
			target := []string{"--addr", inst.Addr}
			if tt.url != "" {
				target = []string{"--url", "redis://" + inst.Addr + tt.url}
			}
			stdout, _, err := run(t, ctx, append(append([]string{"load", "-q"}, tt.args...), target...)...)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want an error containing %q", err, tt.err)
				}
				// An input file is checked before anything is loaded.
				if n := servertest.KeyCount(t, db0); n != 1 {
					t.Fatalf("the server holds %d keys after the error, want db 0's k only", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Log(stdout)
			if tt.want[0] == nil {
				if v := db0.Get(ctx, "k").Val(); v != "orig" {
					t.Fatalf("db 0's k is %q, want orig", v)
				}
				if n := db0.DBSize(ctx).Val(); n != 1 {
					t.Fatalf("db 0 holds %d keys, want 1", n)
				}
			}
			for db, kv := range tt.want {
				c := servertest.Client(t, inst.Addr, db)
				if n := c.DBSize(ctx).Val(); n != int64(len(kv)) {
					t.Fatalf("db %d holds %d keys, want %d", db, n, len(kv))
				}
				for k, v := range kv {
					if got := c.Get(ctx, k).Val(); got != v {
						t.Fatalf("db %d: %s is %q, want %q", db, k, got, v)
					}
				}
			}
		})
	}
}

// TestLoadExpiredKeys loads a dump that a real server wrote, one of whose two keys expired
// after the save, by every method: the summary and --json count it as expired, not loaded,
// the manifest counts what the server holds, and verify --addr passes with it.
func TestLoadExpiredKeys(t *testing.T) {
	dump := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		if err := c.Set(ctx, "live", "v", time.Hour).Err(); err != nil {
			return err
		}
		if err := c.HSet(ctx, "gone", "f", "v").Err(); err != nil {
			return err
		}
		return c.PExpire(ctx, "gone", 1500*time.Millisecond).Err()
	})
	time.Sleep(2 * time.Second)
	for _, method := range []string{"sequential", "parallel", "pipeline", "mass"} {
		t.Run(method, func(t *testing.T) {
			inst := servertest.StartEmpty(t)
			m := filepath.Join(t.TempDir(), "m.json")
			ctx := context.Background()
			stdout, _, err := run(t, ctx, "load", "--addr", inst.Addr, "--method", method, "--manifest", m, dump)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(stdout, "loaded 1 keys (1 with TTL) and 1 whose expiry had passed (the server keeps none of them) into") {
				t.Fatalf("summary %q", stdout)
			}
			out, _, err := run(t, ctx, "load", "--addr", inst.Addr, "--method", method, "--json", dump)
			if err != nil {
				t.Fatal(err)
			}
			var sum struct{ Keys, Expires, Expired uint64 }
			if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Keys != 1 || sum.Expires != 1 || sum.Expired != 1 {
				t.Fatalf("--json %s (%v)", out, err)
			}
			man, err := manifest.Read(m)
			if err != nil {
				t.Fatal(err)
			}
			if man.Keys != 1 || man.Expires != 1 || man.DBs[0].Keys != 1 {
				t.Fatalf("manifest counts %d keys (%d expiring), dbs %v", man.Keys, man.Expires, man.DBs)
			}
			if n := servertest.Client(t, inst.Addr, 0).DBSize(ctx).Val(); n != 1 {
				t.Fatalf("DBSIZE %d", n)
			}
			report, _, err := run(t, ctx, "verify", "--addr", inst.Addr, "--manifest", m)
			if err != nil || !strings.HasSuffix(report, "PASS\n") {
				t.Fatalf("verify: %v\n%s", err, report)
			}
		})
	}
}
