package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestConformanceReaders puts the dumps of testdata/dumps, and the same as RDB 9 (Redis
// 6.2-style sources, without their functions), through the commands that read a dump
// without writing one, the server started on the dump as the oracle: inspect counts
// the keys the server holds (those not expired) and its function libraries, from the file
// and from the live server; diff finds the dump and its conversion to redis-7.0 the same
// (exit 0, "0 differing"); verify loads it into a redis-server and passes it.
func TestConformanceReaders(t *testing.T) {
	redistest.RedisServer(t)
	dumps, err := filepath.Glob(filepath.Join(conformanceDumps, "*.rdb"))
	if err != nil || len(dumps) == 0 {
		t.Fatalf("no dumps in %s: %v", conformanceDumps, err)
	}
	// Redis 6.2-style sources: each dump as RDB 9, which the installed server loads too.
	dir := t.TempDir()
	for _, dump := range dumps[:len(dumps):len(dumps)] {
		old := filepath.Join(dir, "rdb9-"+filepath.Base(dump))
		if _, stderr, err := run(t, t.Context(), "convert", dump, "-q", "-o", old, "--target", "redis-6.2", "--drop-functions"); err != nil {
			t.Fatalf("convert --target redis-6.2: %v\n%s", err, stderr)
		}
		dumps = append(dumps, old)
	}
	for _, dump := range dumps {
		t.Run(filepath.Base(dump), func(t *testing.T) {
			ref := servertest.Start(t, dump, "--enable-debug-command", "yes")
			want := readState(t, ref.Addr)
			var keys uint64
			for _, db := range want.values {
				keys += uint64(len(db))
			}
			for _, in := range []string{dump, "redis://" + ref.Addr} {
				stdout, stderr, err := run(t, t.Context(), "inspect", in, "--json")
				if err != nil {
					t.Fatalf("inspect %s: %v\n%s", in, err, stderr)
				}
				var rep inspect.Report
				if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
					t.Fatal(err)
				}
				if rep.Memory.Keys != keys || rep.Functions != len(want.functions) {
					t.Errorf("inspect %s: %d keys, %d libraries; the server holds %d, %d", in, rep.Memory.Keys, rep.Functions, keys, len(want.functions))
				}
			}

			conv := filepath.Join(t.TempDir(), "conv.rdb")
			if _, stderr, err := run(t, t.Context(), "convert", dump, "-q", "-o", conv, "--target", "redis-7.0"); err != nil {
				t.Fatalf("convert: %v\n%s", err, stderr)
			}
			if stdout, stderr, err := run(t, t.Context(), "diff", dump, conv); err != nil || !strings.Contains(stdout, " 0 differing") {
				t.Errorf("diff of the dump and its conversion: %v\n%s%s", err, stdout, stderr)
			}
			if stdout, stderr, err := run(t, t.Context(), "verify", dump, "--backend", "process"); err != nil || !strings.Contains(stdout, "PASS") {
				t.Errorf("verify: %v\n%s%s", err, stdout, stderr)
			}
		})
	}
}
