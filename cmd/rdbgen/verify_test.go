package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// generateFile runs rdbgen generate --count 500 with args into a new dump.rdb and returns
// its path.
func generateFile(t *testing.T, args ...string) string {
	t.Helper()
	return generateWith(t, append([]string{"--count", "500"}, args...)...)
}

// generateWith runs rdbgen generate with args into a new dump.rdb and returns its path.
func generateWith(t *testing.T, args ...string) string {
	t.Helper()
	return generateInto(t, "dump.rdb", args...)
}

// generateInto runs rdbgen with args and -o a new path of the given name (a file, or with
// --cluster-shards a directory), and returns the path.
func generateInto(t *testing.T, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if _, _, err := run(t, context.Background(), append([]string{"-o", path, "-q"}, args...)...); err != nil {
		t.Fatal(err)
	}
	return path
}

// process returns the flags that verify with a local redis-server.
func process(t *testing.T) []string {
	return []string{"--backend", "process", "--redis-server", redistest.RedisServer(t)}
}

// jsonReport is the part of verify's JSON report the tests read.
type jsonReport struct {
	Manifest string `json:"manifest"`
	Pass     bool   `json:"pass"`
	Reason   string `json:"reason"`
	File     *struct {
		RDBVersion     int    `json:"rdb_version"`
		ChecksumStatus string `json:"checksum_status"`
		Keys           uint64 `json:"keys"`
	} `json:"file"`
	Load *struct {
		Backend string  `json:"backend"`
		Seconds float64 `json:"seconds"`
	} `json:"load"`
	Server *struct {
		Keys       uint64 `json:"keys"`
		UsedMemory int64  `json:"used_memory"`
		Sampled    int    `json:"sampled"`
		SampleSeed uint64 `json:"sample_seed"`
	} `json:"server"`
	Mismatches []struct {
		Stage string `json:"stage"`
		What  string `json:"what"`
	} `json:"mismatches"`
	MismatchCount int `json:"mismatch_count"`
}

func TestVerifyPasses(t *testing.T) {
	path := generateFile(t, "--ttl", "1h", "--ttl-jitter", "1m", "--db", "3")
	// Flags after the file, as people type them.
	args := append([]string{"verify", path, "--sample", "100"}, process(t)...)
	stdout, stderr, err := run(t, t.Context(), args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, want := range []string{
		"file      " + path + ": ", "RDB 9, checksum ", " ok\n",
		"db 3: 500 keys, 500 with TTL (500 string)",
		"manifest  " + manifest.PathFor(path),
		"load      process at 127.0.0.1:",
		"server    redis 7.", "used_memory ",
		"100 sampled keys checked (type, value, TTL; seed ", "2 keys checked absent",
		"\nPASS\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if stderr != "" {
		t.Errorf("stderr %q", stderr)
	}
}

// TestVerifyWhatGenerateWrites verifies the collections and the example spec files that
// generate writes, through the manifests it writes.
func TestVerifyWhatGenerateWrites(t *testing.T) {
	specs, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no example specs: %v", err)
	}
	runs := map[string][]string{
		"hashes":      {"--count", "200", "--type", "hash", "--members", "1-30", "--value", "random", "--target", "redis-7.0"},
		"lists":       {"--count", "200", "--type", "list", "--members", "5", "--ttl", "1h"},
		"sets":        {"--count", "200", "--type", "set", "--members", "1-40", "--value", "random", "--value-size", "20", "--target", "redis-7.0"},
		"sorted sets": {"--count", "200", "--type", "zset", "--members", "1-40", "--value", "random", "--db", "4"},
	}
	for _, s := range specs {
		runs[filepath.Base(s)] = []string{"--spec", s, "--count-scale", "0.001", "--target", "redis-7.0"}
	}
	for name, args := range runs {
		t.Run(name, func(t *testing.T) {
			path := generateWith(t, args...)
			stdout, _, err := run(t, t.Context(), append([]string{"verify", path, "--sample", "300"}, process(t)...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			if !strings.HasSuffix(stdout, "PASS\n") || !strings.Contains(stdout, " sampled keys checked") {
				t.Fatalf("report:\n%s", stdout)
			}
		})
	}
}

func TestVerifyJSON(t *testing.T) {
	path := generateFile(t)
	args := append([]string{"verify", "--json", "--sample-seed", "77", path}, process(t)...)
	stdout, stderr, err := run(t, t.Context(), args...)
	if err != nil {
		t.Fatal(err)
	}
	var rep jsonReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if !rep.Pass || rep.Manifest != manifest.PathFor(path) || rep.File.Keys != 500 || rep.File.ChecksumStatus != "ok" ||
		rep.Load.Backend != "process" || rep.Server.Keys != 500 || rep.Server.Sampled != 500 || rep.Server.SampleSeed != 77 || rep.Server.UsedMemory <= 0 {
		t.Fatalf("report %+v\n%s", rep, stdout)
	}
	if stderr != "" {
		t.Fatalf("stderr %q", stderr)
	}
}

func TestVerifyOffline(t *testing.T) {
	path := generateFile(t)
	stdout, _, err := run(t, t.Context(), "verify", "--backend", "offline", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(stdout, "PASS\n") || strings.Contains(stdout, "load ") || strings.Contains(stdout, "server ") {
		t.Fatalf("report:\n%s", stdout)
	}
}

func TestVerifyDocker(t *testing.T) {
	path := generateFile(t, "--value", "random", "--value-size", "100")
	stdout, _, err := run(t, t.Context(), "verify", path, "--backend", "docker", "--image", redistest.Image(t))
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if !strings.Contains(stdout, "load      docker container rdbgen-") || !strings.HasSuffix(stdout, "PASS\n") {
		t.Fatalf("report:\n%s", stdout)
	}
}

// TestVerifyFails checks that each bad file fails with its report on stdout and a one-line
// reason as the error, which main prints on stderr with exit status 1.
func TestVerifyFails(t *testing.T) {
	tests := []struct {
		name   string
		gen    []string
		change func(t *testing.T, path string) []string // returns extra flags
		want   string
	}{
		{"flipped byte", nil, func(t *testing.T, path string) []string {
			redistest.ChangeFile(t, path, func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b })
			return nil
		}, "FAIL: file: checksum: got "},
		{"truncated", nil, func(t *testing.T, path string) []string {
			redistest.ChangeFile(t, path, func(b []byte) []byte { return b[:len(b)/2] })
			return nil
		}, "FAIL: file: truncated: got "},
		{"manifest with a wrong count", nil, func(t *testing.T, path string) []string {
			m, err := manifest.Read(manifest.PathFor(path))
			if err != nil {
				t.Fatal(err)
			}
			m.DBs[0] = record.Counts{Keys: 499}
			other := filepath.Join(t.TempDir(), "other.json")
			if err := manifest.Write(other, m); err != nil {
				t.Fatal(err)
			}
			return []string{"--manifest", other}
		}, "FAIL: file: keys in db 0: got 500, want 499 (manifest)"},
		{"version the server refuses", []string{"--target", "redis-7.4"}, nil,
			"FAIL: load: redis refused dump.rdb: Can't handle RDB format version 12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := generateFile(t, tt.gen...)
			args := append([]string{"verify", path}, process(t)...)
			if tt.change != nil {
				args = append(args, tt.change(t, path)...)
			}
			sum := redistest.FileSum(t, path)
			for _, asJSON := range []bool{false, true} {
				args := args
				if asJSON {
					args = append(args, "--json")
				}
				stdout, _, err := run(t, t.Context(), args...)
				if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("got %v, want one line beginning %q", err, tt.want)
				}
				if asJSON {
					var rep jsonReport
					jerr := json.Unmarshal([]byte(stdout), &rep)
					if jerr != nil || rep.Pass || rep.MismatchCount == 0 || "FAIL: "+rep.Reason != err.Error() {
						t.Fatalf("JSON report %+v, %v:\n%s", rep, jerr, stdout)
					}
				} else if !strings.Contains(stdout, "\nFAIL: ") || !strings.Contains(stdout, "\n  "+strings.TrimPrefix(tt.want, "FAIL: ")) {
					t.Fatalf("report:\n%s", stdout)
				}
			}
			if redistest.FileSum(t, path) != sum {
				t.Fatal("verify changed the file")
			}
		})
	}
}

func TestVerifyQuiet(t *testing.T) {
	path := generateFile(t, "--target", "redis-7.4")
	stdout, stderr, err := run(t, t.Context(), "verify", "-q", path, "--backend", "offline")
	if err != nil || stdout != "" || stderr != "" {
		t.Fatalf("pass: %v, %q, %q", err, stdout, stderr)
	}
	stdout, stderr, err = run(t, t.Context(), append([]string{"verify", "-q", path}, process(t)...)...)
	if err == nil || !strings.Contains(err.Error(), "RDB format version 12") || stdout != "" || stderr != "" {
		t.Fatalf("fail: %v, %q, %q", err, stdout, stderr)
	}
}

func TestVerifyBadInput(t *testing.T) {
	dir := t.TempDir()
	good := generateFile(t)
	broken := filepath.Join(dir, "broken.rdb")
	os.WriteFile(broken, []byte("REDIS0009"), 0o644)
	os.WriteFile(manifest.PathFor(broken), []byte("{not json"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", nil, "no file to verify"},
		{"missing file", []string{filepath.Join(dir, "missing.rdb")}, "missing.rdb: no such file or directory"},
		{"directory", []string{dir}, "is a directory, not an RDB file"},
		{"two files", []string{good, good}, "unexpected argument"},
		{"file and addr", []string{good, "--addr", "127.0.0.1:1"}, "give a file or --addr/--url, not both"},
		{"addr and url", []string{"--addr", "127.0.0.1:1", "--url", "redis://127.0.0.1:1"}, "give --addr or --url, not both"},
		{"addr without manifest", []string{"--addr", "127.0.0.1:1"}, "--addr and --url need --manifest"},
		{"addr with backend", []string{"--addr", "127.0.0.1:1", "--backend", "docker", "--manifest", manifest.PathFor(good)}, "--backend and --container do not apply"},
		{"bad url", []string{"--url", "http://x", "--manifest", manifest.PathFor(good)}, "--url: "},
		{"unknown backend", []string{good, "--backend", "vm"}, `unknown backend "vm" (known: auto, docker, process, offline)`},
		{"container with process", []string{good, "--backend", "process", "--container", "c"}, "--container restarts a docker container"},
		{"negative sample", []string{good, "--sample", "-1"}, "--sample -1 is negative"},
		{"missing manifest", []string{good, "--manifest", filepath.Join(dir, "nope.json")}, "nope.json: no such file or directory"},
		{"corrupt manifest", []string{broken}, "read manifest " + manifest.PathFor(broken)},
		{"unknown flag after the file", []string{good, "--bogus"}, "--bogus: no such flag for rdbgen verify"},
		{"nothing answers", []string{"--addr", "127.0.0.1:1", "--manifest", manifest.PathFor(good)}, "connect to redis at 127.0.0.1:1: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, _, err := run(t, t.Context(), append([]string{"verify"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line containing %q", err, tt.want)
			}
			if stdout != "" {
				t.Fatalf("stdout %q", stdout)
			}
		})
	}
}

// TestVerifyLive checks a running server with --addr, and with --url and a password.
func TestVerifyLive(t *testing.T) {
	path := generateFile(t, "--ttl", "1h")
	inst, err := server.Start(t.Context(), path, server.Options{Backend: server.BackendProcess, RedisServer: redistest.RedisServer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	m := manifest.PathFor(path)

	stdout, _, err := run(t, t.Context(), "verify", "--addr", inst.Addr, "--manifest", m)
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if strings.Contains(stdout, "file ") || !strings.Contains(stdout, "server    redis 7.") || !strings.HasSuffix(stdout, "PASS\n") {
		t.Fatalf("report:\n%s", stdout)
	}

	c := redis.NewClient(&redis.Options{Addr: inst.Addr})
	defer c.Close()
	if err := c.ConfigSet(t.Context(), "requirepass", "s3cret").Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // so that Close can shut the server down
		a := redis.NewClient(&redis.Options{Addr: inst.Addr, Password: "s3cret"})
		a.ConfigSet(context.Background(), "requirepass", "")
		a.Close()
	})
	if _, _, err := run(t, t.Context(), "verify", "--addr", inst.Addr, "--manifest", m); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Fatalf("without the password: %v", err)
	}
	stdout, _, err = run(t, t.Context(), "verify", "--url", "redis://:s3cret@"+inst.Addr+"/0", "--manifest", m, "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	var rep jsonReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || !rep.Pass || rep.Server.Sampled != 500 || rep.File != nil {
		t.Fatalf("report %+v, %v", rep, err)
	}
}
