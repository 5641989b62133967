package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/manifest"
)

// TestLoadCommand loads with each method and checks every key against the
// dataset that the manifest written by --manifest describes.
func TestLoadCommand(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in the summary
	}{
		{"sequential", []string{"--method", "sequential", "--count", "500"}, "by sequential (1 worker)"},
		{"parallel", []string{"--method", "parallel", "--workers", "4", "--count", "1000", "--ttl", "1h", "--ttl-jitter", "1m", "--db", "4"}, "(1000 with TTL) into %s db 4 by parallel (4 workers)"},
		{"pipeline", []string{"--method", "pipeline", "--count", "3000", "--batch", "100", "--value", "random", "--value-size", "50", "--seed", "9"}, "by pipeline (1 worker, batch 100)"},
		{"auto", []string{"--count", "3000", "--batch", "100"}, "by auto (1 worker, MSET of 100 keys): "},
		{"auto with TTL", []string{"--count", "3000", "--ttl", "1h"}, "\nsent 0 strings in 0 MSET commands, 3000 as SET, 0 keys as RESTORE, 0 as commands\n"},
		{"auto hashes", []string{"--count", "300", "--type", "hash", "--db", "2"}, "\nsent 0 strings in 0 MSET commands, 0 as SET, 300 keys as RESTORE, 0 as commands\n"},
		{"mass", []string{"--method", "mass", "--count", "3000", "--key-prefix", "m:", "--key-start", "0", "--ttl", "10m"}, "loaded 3000 keys (3000 with TTL) into %s db 0 by mass (1 worker)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst := servertest.StartEmpty(t)
			m := filepath.Join(t.TempDir(), "load.manifest.json")
			args := append([]string{"load", "--addr", inst.Addr, "--manifest", m}, tt.args...)
			stdout, stderr, err := run(t, context.Background(), args...)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, inst.Addr)
			}
			if !strings.HasPrefix(stdout, "loaded ") || !strings.Contains(stdout, want) || !strings.Contains(stdout, " keys/s\n") {
				t.Fatalf("summary %q, want %q", stdout, want)
			}
			if stderr != "" {
				t.Fatalf("stderr %q", stderr)
			}
			man, err := manifest.Read(m)
			if err != nil {
				t.Fatal(err)
			}
			if man.Keys != man.Dataset.Count || man.DBs[man.Dataset.DB].Keys != man.Keys || man.Expires != man.Dataset.Expires() {
				t.Fatalf("manifest %+v", man)
			}
			// rdbgen verify --addr checks every key against the manifest.
			report, _, err := run(t, context.Background(), "verify", "--addr", inst.Addr, "--manifest", m, "--sample", "5000")
			if err != nil || !strings.HasSuffix(report, "PASS\n") {
				t.Fatalf("verify: %v\n%s", err, report)
			}
			servertest.CheckExpiries(t, inst.Addr, man.Dataset)
		})
	}
}

// TestLoadURL takes the password and database from --url, and prints JSON.
func TestLoadURL(t *testing.T) {
	inst := servertest.StartEmpty(t)
	servertest.RequirePass(t, inst, "s3cret")
	m := filepath.Join(t.TempDir(), "m.json")
	url := "redis://:s3cret@" + inst.Addr + "/2"
	stdout, _, err := run(t, context.Background(), "load", "--url", url, "--count", "700", "--json", "--manifest", m, "--method", "mass")
	if err != nil {
		t.Fatal(err)
	}
	var sum summary.Load
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if sum.Keys != 700 || sum.DB != 2 || sum.Addr != inst.Addr || sum.Method != "mass" || sum.KeysPerSecond <= 0 {
		t.Fatalf("summary %+v", sum)
	}
	if strings.Contains(stdout, "s3cret") {
		t.Fatalf("the summary shows the password: %s", stdout)
	}
	man, err := manifest.Read(m)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: inst.Addr, Password: "s3cret", DB: 2})
	defer c.Close()
	if n := c.DBSize(t.Context()).Val(); n != 700 || man.Dataset.DB != 2 {
		t.Fatalf("DBSIZE of db 2 is %d; manifest db %d", n, man.Dataset.DB)
	}
}

// TestLoadRestore loads by --method restore, which the JSON summary names; loading again
// stops at the first key the server holds, naming it and --replace, with which it succeeds.
func TestLoadRestore(t *testing.T) {
	inst := servertest.StartEmpty(t)
	args := []string{"load", "--addr", inst.Addr, "--type", "hash", "--count", "300", "--method", "restore", "--json"}
	for _, tt := range []struct {
		extra []string
		err   string
	}{
		{nil, ""},
		{nil, `write key "key100000001": the server holds the key already (BUSYKEY Target key name already exists.): replace it with --replace`},
		{[]string{"--replace"}, ""},
	} {
		stdout, _, err := run(t, context.Background(), append(args, tt.extra...)...)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("%v: got %v, want %q", tt.extra, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tt.extra, err)
		}
		var sum summary.Load
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
		}
		if sum.Keys != 300 || sum.Method != "restore" || sum.Workers != 1 {
			t.Fatalf("%v: summary %+v", tt.extra, sum)
		}
	}
}

func TestLoadQuiet(t *testing.T) {
	inst := servertest.StartEmpty(t)
	stdout, stderr, err := run(t, context.Background(), "load", "--addr", inst.Addr, "--count", "10", "-q")
	if err != nil || stdout != "" || stderr != "" {
		t.Fatalf("err %v, stdout %q, stderr %q", err, stdout, stderr)
	}
}

func TestLoadBadInput(t *testing.T) {
	refused := "127.0.0.1:1"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no count", []string{"--addr", refused}, "--count is required"},
		{"addr and url", []string{"--count", "1", "--addr", refused, "--url", "redis://" + refused}, "--addr and --url both name the server"},
		{"bad url", []string{"--count", "1", "--url", "http://x"}, "--url: redis: invalid URL scheme: http"},
		{"unix url", []string{"--count", "1", "--url", "unix:///tmp/redis.sock"}, "unix sockets are not supported"},
		{"db disagrees", []string{"--count", "1", "--url", "redis://" + refused + "/2", "--db", "3"}, "--db 3 disagrees with the database 2 of --url"},
		{"unknown method", []string{"--count", "1", "--method", "fax"}, `method "fax" (known: sequential, parallel, pipeline, mass, restore, auto)`},
		{"batch without pipeline", []string{"--count", "1", "--method", "sequential", "--batch", "10"}, "--batch goes with --method pipeline or auto, not sequential"},
		{"replace without restore", []string{"--count", "1", "--method", "mass", "--replace"}, "--replace goes with --method restore (mass replaces keys always)"},
		{"batch with restore", []string{"--count", "1", "--method", "restore", "--batch", "10"}, "--batch goes with --method pipeline or auto, not restore"},
		{"batch 1 with mass", []string{"--count", "1", "--method", "mass", "--batch", "1"}, "--batch goes with --method pipeline or auto, not mass"},
		{"db and db-map", []string{"x.json", "--db", "1", "--db-map", "0=1"}, "--db and --db-map both say where the keys go: give one"},
		{"db-map with the dataset", []string{"--count", "1", "--db-map", "0=1"}, "--db-map goes with --spec or an input file"},
		{"bad db-map", []string{"x.json", "--db-map", "0-1"}, `--db-map "0-1": "0-1" has no '='`},
		{"db-map twice", []string{"x.json", "--db-map", "0=1,0=2"}, `maps database 0 a second time`},
		{"db-map out of range", []string{"x.json", "--db-map", "0=-1"}, `is out of range`},
		{"url db and db-map", []string{"x.json", "--url", "redis://" + refused + "/2", "--db-map", "0=1"}, "--url's database and --db-map both say where the keys go"},
		{"url db disagrees for a file", []string{"x.json", "--url", "redis://" + refused + "/2", "--db", "3"}, "--db 3 disagrees with the database 2 of --url"},
		{"two passwords", []string{"--count", "1", "--url", "redis://:a@" + refused, "--password", "b"}, "--password (or $REDISCLI_AUTH, or --password-file) and the password of --url: give one"},
		{"db of a cluster", []string{"x.json", "--cluster", "--db", "3"}, "database 3: a cluster has database 0 only"},
		{"workers with mass", []string{"--count", "1", "--method", "mass", "--workers", "3"}, "mass uses one connection"},
		{"unknown expiry", []string{"--count", "1", "--expiry", "soon"}, `expiry "soon"`},
		{"bad dataset", []string{"--count", "1", "--value-size", "5"}, "goes with --value random"},
		{"two inputs", []string{"a.json", "b.json"}, "one input file at most, got 2 arguments"},
		{"count and a file", []string{"--count", "1", "extra"}, "--count does not go with an input file"},
		{"seed and a file", []string{"--seed", "1", "x.json"}, "--seed does not go with an input file"},
		{"spec and a file", []string{"--spec", "x.yaml", "x.json"}, `--spec and the input "x.json" both name the records`},
		{"spec and count", []string{"--spec", "x.yaml", "--count", "1"}, "--count does not go with --spec"},
		{"count-scale alone", []string{"--count", "1", "--count-scale", "0.5"}, "--count-scale goes with --spec"},
		{"format alone", []string{"--count", "1", "--input-format", "csv"}, "--input-format goes with an input file"},
		{"bad on-duplicate", []string{"x.json", "--on-duplicate", "both"}, `--on-duplicate "both"`},
		{"missing spec", []string{"--spec", "/nonexistent.yaml"}, "read spec: open /nonexistent.yaml"},
		{"members of strings", []string{"--count", "1", "--members", "3"}, "--members goes with --type hash"},
		{"connection refused", []string{"--count", "5", "--addr", refused}, "load into 127.0.0.1:1 stopped with 0 of 5 keys confirmed: connect: dial tcp 127.0.0.1:1: connect: connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := filepath.Join(t.TempDir(), "m.json")
			_, _, err := run(t, context.Background(), append([]string{"load", "--manifest", m}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			if _, err := manifest.Read(m); err == nil {
				t.Fatal("a failed load wrote a manifest")
			}
		})
	}
}

// TestLoadManifestExists checks that load refuses, before loading, a --manifest that would
// replace an existing file, unless --force.
func TestLoadManifestExists(t *testing.T) {
	m := filepath.Join(t.TempDir(), "dump.rdb")
	os.WriteFile(m, []byte("precious"), 0o644)
	_, _, err := run(t, context.Background(), "load", "--addr", "127.0.0.1:1", "--count", "1", "--manifest", m)
	if want := "--manifest " + m + ": file exists (use --force to overwrite it)"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if b, _ := os.ReadFile(m); string(b) != "precious" {
		t.Fatalf("the file changed to %q", b)
	}
	_, _, err = run(t, context.Background(), "load", "--addr", "127.0.0.1:1", "--count", "1", "--manifest", m, "--force")
	if err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("with --force: got %v, want the load to be tried", err)
	}
}

func TestLoadInterrupted(t *testing.T) {
	inst := servertest.StartEmpty(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, _, err := run(t, ctx, "load", "--addr", inst.Addr, "--count", "100000000", "--method", "sequential")
	if err == nil || !strings.HasPrefix(err.Error(), "interrupted: ") || !strings.HasSuffix(err.Error(), " of 100000000 keys confirmed by "+inst.Addr) {
		t.Fatalf("got %v", err)
	}
	t.Logf("%v after %v", err, time.Since(start))
}
