package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/server"
)

// thirdPartyDir holds RDB files other projects wrote (testdata/thirdparty/SOURCES says
// where each comes from).
const thirdPartyDir = "../../testdata/thirdparty"

// redis74 is the hand-built Redis 7.4 that reads the corpus's RDB 11 and 12 files where it
// exists; CI has none, and there those files are checked through a conversion for 7.0.
const redis74 = "/opt/redis-versions/redis-7.4.1/redis-server"

// knownDiffs are the paths ("FILE PATH") whose result a server holds otherwise than the
// original, with why; each must still differ (a fix removes its line).
var knownDiffs = map[string]string{}

// TestThirdPartyDumps gives every file of the corpus to redis-server 7.0.15 and to rdbgen,
// the server's verdict as the oracle. A file of RDB 10 or older that the server loads is
// read by inspect and verify, diff finds it the same as its conversion for redis-7.0, and
// that conversion, its JSON export imported back, its merge and load (pipeline, restore)
// give a server the same DEBUG DIGEST,
// FUNCTION LIST, TTLs and streams (XINFO STREAM FULL, XPENDING); one the server refuses is
// refused by rdbgen, or read with the reason shown (module data the server has no module
// for, Redis Enterprise opcodes). A newer file (RDB 11+) is read by inspect and converted
// for redis-7.0, hash field TTLs and Redis 8.6's newer data dropped knowingly, and 7.0.15
// loads the conversion; where the hand-built Redis 7.4 exists (not in CI), an RDB 11 or 12
// file is compared there too, with its conversion for redis-7.4.
func TestThirdPartyDumps(t *testing.T) {
	redistest.RedisServer(t)
	var files []string
	err := filepath.WalkDir(thirdPartyDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".rdb") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) < 100 {
		t.Fatalf("%d files in %s: %v", len(files), thirdPartyDir, err)
	}
	_, statErr := os.Stat(redis74)
	have74 := statErr == nil
	for _, path := range files {
		name, _ := filepath.Rel(thirdPartyDir, path)
		t.Run(name, func(t *testing.T) {
			checkThirdParty(t, path, name, have74)
		})
	}
}

func checkThirdParty(t *testing.T, path, name string, have74 bool) {
	ctx := context.Background()
	version := fileVersion(t, path)
	dir := t.TempDir()
	out70 := filepath.Join(dir, "out70.rdb")
	report, inspectErr, iErr := run(t, ctx, "inspect", "--json", "--quiet", path)
	if version > decoder.MaxVersion && version != 80 {
		if iErr == nil || !strings.Contains(iErr.Error(), "unsupported RDB version") {
			t.Fatalf("RDB %d: inspect %v, want an unsupported version", version, iErr)
		}
		return
	}
	if version <= 10 {
		want, serr := serverState70(t, redistest.RedisServer(t), path)
		if serr != nil {
			refusedAlike(t, ctx, path, report, iErr, serr)
			return
		}
		if iErr != nil {
			t.Fatalf("redis-server 7.0.15 loads it, inspect fails: %v %s", iErr, inspectErr)
		}
		if _, stderr, err := run(t, ctx, "convert", "--quiet", "--target", "redis-7.0", "-o", out70, path); err != nil {
			t.Fatalf("redis-server 7.0.15 loads it, convert fails: %v %s", err, stderr)
		}
		got, err := serverState70(t, redistest.RedisServer(t), out70)
		if err != nil {
			t.Fatalf("redis-server 7.0.15 loads the original, not the conversion: %v", err)
		}
		sameState(t, name, "convert", want, got, stateOptions{rdb9: version < 10})
		otherPaths(t, ctx, path, out70, name, want, version)
		return
	}
	// RDB 11 and newer.
	if iErr != nil {
		t.Fatalf("inspect: %v %s", iErr, inspectErr)
	}
	modules := hasModuleData(t, report)
	args := []string{"convert", "--quiet", "--target", "redis-7.0", "--drop-field-ttl", "--drop-newer", "-o", out70, path}
	if _, stderr, err := run(t, ctx, args...); err != nil {
		t.Fatalf("%q: %v %s", args, err, stderr)
	}
	if _, err := serverState70(t, redistest.RedisServer(t), out70); err != nil && !modules {
		t.Fatalf("redis-server 7.0.15 refuses the conversion: %v", err)
	}
	if !have74 || version > 12 {
		return
	}
	want, serr := serverState70(t, redis74, path)
	if serr != nil {
		refusedAlike(t, ctx, path, report, iErr, serr)
		return
	}
	out74 := filepath.Join(dir, "out74.rdb")
	if _, stderr, err := run(t, ctx, "convert", "--quiet", "--target", "redis-7.4", "-o", out74, path); err != nil {
		t.Fatalf("redis 7.4.1 loads it, convert --target redis-7.4 fails: %v %s", err, stderr)
	}
	got, err := serverState70(t, redis74, out74)
	if err != nil {
		t.Fatalf("redis 7.4.1 loads the original, not the conversion: %v", err)
	}
	sameState(t, name, "redis-7.4", want, got, stateOptions{})
}

// otherPaths checks the other commands on a file the server loads (want: what it holds):
// verify passes it offline, diff finds it the same as its conversion (out70), and its export
// as JSON imported back for redis-7.0, its merge (alone) for redis-7.0, and load by
// pipeline and by RESTORE into an empty server give what the original gives.
func otherPaths(t *testing.T, ctx context.Context, path, out70, name string, want serverState, version int) {
	t.Helper()
	if out, stderr, err := run(t, ctx, "verify", "--backend", "offline", path); err != nil {
		t.Fatalf("verify --backend offline: %v\n%s%s", err, out, stderr)
	}
	if out, stderr, err := run(t, ctx, "diff", path, out70); err != nil {
		t.Fatalf("diff of the file and its conversion: %v\n%s%s", err, out, stderr)
	}
	dir := t.TempDir()
	json, back, merged := filepath.Join(dir, "out.json"), filepath.Join(dir, "back.rdb"), filepath.Join(dir, "merged.rdb")
	for _, args := range [][]string{
		{"export", "--quiet", "-o", json, path},
		{"import", "--quiet", "--target", "redis-7.0", "-o", back, json},
		{"merge", "--quiet", "--target", "redis-7.0", "-o", merged, path},
	} {
		if _, stderr, err := run(t, ctx, args...); err != nil {
			t.Fatalf("%q: %v %s", args, err, stderr)
		}
	}
	for out, what := range map[string]string{back: "export+import", merged: "merge"} {
		got, err := serverState70(t, redistest.RedisServer(t), out)
		if err != nil {
			t.Fatalf("redis-server 7.0.15 loads the original, not its %s: %v", what, err)
		}
		sameState(t, name, what, want, got, stateOptions{rdb9: version < 10})
	}
	for _, method := range []string{"pipeline", "restore"} {
		inst := servertest.StartEmpty(t, "--enable-debug-command", "yes")
		args := []string{"load", "--quiet", "--addr", inst.Addr, "--method", method, path}
		if _, stderr, err := run(t, ctx, args...); err != nil {
			t.Fatalf("%q: %v %s", args, err, stderr)
		}
		sameState(t, name, "load "+method, want, readState(t, inst.Addr), stateOptions{rdb9: version < 10})
	}
}

// refusedAlike checks a file the server refused (serr): rdbgen refuses it too, or reads it
// and its report shows why the server could not (module data, Redis Enterprise opcodes).
func refusedAlike(t *testing.T, ctx context.Context, path, report string, inspectErr, serr error) {
	t.Helper()
	if inspectErr == nil {
		if !hasModuleData(t, report) && !strings.Contains(report, `"enterprise_skipped"`) {
			t.Fatalf("the server refuses it (%v); inspect reads it and says nothing of why", serr)
		}
		return
	}
	if _, _, err := run(t, ctx, "convert", "--quiet", "-o", filepath.Join(t.TempDir(), "out.rdb"), path); err == nil {
		t.Fatalf("the server refuses it (%v) and so does inspect (%v); convert writes it", serr, inspectErr)
	}
}

// hasModuleData tells whether inspect's JSON report counts module keys or module AUX data.
func hasModuleData(t *testing.T, report string) bool {
	t.Helper()
	var r struct {
		Modules   []any `json:"modules"`
		ModuleAux []any `json:"module_aux"`
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		return false
	}
	return len(r.Modules)+len(r.ModuleAux) > 0
}

// serverState70 starts the server binary on the file and returns what it holds, or the
// error of a server that refuses the file.
func serverState70(t *testing.T, bin, path string) (serverState, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: bin,
		Args: []string{"--enable-debug-command", "yes"}})
	if err != nil {
		return serverState{}, err
	}
	defer inst.Close(context.Background())
	return readState(t, inst.Addr), nil
}

// sameState fails the test when got differs from want, unless the file is a known
// difference, which must still differ.
func sameState(t *testing.T, name, path string, want, got serverState, o stateOptions) {
	t.Helper()
	diffs := diffState(want, got, o)
	why, known := knownDiffs[filepath.ToSlash(name)+" "+path]
	switch {
	case known && len(diffs) == 0:
		t.Fatalf("listed as a known difference (%s), and the servers agree now: remove it from knownDiffs", why)
	case known:
		t.Logf("known difference: %s", why)
	case len(diffs) > 0:
		t.Fatalf("%s differs from the original:\n%s", path, strings.Join(diffs[:min(len(diffs), 10)], "\n"))
	}
}

// fileVersion returns the RDB version in the file's header: the four digits of REDIS, the
// three of VALKEY.
func fileVersion(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, magic := range []string{"REDIS", "VALKEY"} {
		if rest, ok := strings.CutPrefix(string(b[:min(len(b), 9)]), magic); ok {
			if v, err := strconv.Atoi(rest); err == nil {
				return v
			}
		}
	}
	t.Fatalf("no RDB header: %q", b[:min(len(b), 9)])
	return 0
}
