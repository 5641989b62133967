package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// TestConvertNewerRecords: a Redis 8.10 file (RDB 15) of template hashes (opcode 242, types
// 30 and 31), streams of types 26 and 27, a key with module metadata (opcode 243) and an
// array (type 28), built
// from the layouts rdb/decoder/FORMATS.md names, is refused by convert naming the first key
// holding what no earlier format holds; with --drop-newer it converts to redis-7.0, and
// redis-server 7.0.15 holds what an RDB 10 file of the same keys without those parts (no
// array, plain hashes, type 19 streams, the NACKed entries not pending) gives it: DEBUG DIGEST, XINFO
// STREAM FULL, XPENDING, expiries; and so does the server load --drop-newer fills.
func TestConvertNewerRecords(t *testing.T) {
	const at = 4102444800000
	used := rdbfixture.IDMP{Duration: 100, MaxSize: 100, Producers: map[string][]uint64{"p": {0, 1}}, Added: 2}
	abc := []string{"a", "b", "c"}
	src := rdbfixture.File(15,
		rdbfixture.HashTemplate(1, abc...),
		rdbfixture.Record(30, "th", rdbfixture.TemplateHash(30, 1, 0, nil, []string{"u", "v", "w"})),
		rdbfixture.Record(31, "ta", rdbfixture.TemplateHash(31, 0, 1, []string{"x", "y"}, []string{"1", "22"})),
		rdbfixture.NewerStream{Type: 27, Entries: 4, Pending: []uint64{0, 1, 2, 3}, Owned: []uint64{0, 3}, Nacked: []uint64{1, 2}, IDMP: rdbfixture.DefaultIDMP}.Record("s5"),
		rdbfixture.NewerStream{Type: 26, Entries: 3, Pending: []uint64{1}, Owned: []uint64{1}, IDMP: rdbfixture.DefaultIDMP}.Record("s4"),
		rdbfixture.NewerStream{Type: 26, Entries: 2, IDMP: used}.Record("sp"),
		rdbfixture.Expiring(at, rdbfixture.Cat(rdbfixture.KeyMeta("KMT1"), rdbfixture.Record(0, "k", rdbfixture.Str("v")))),
		rdbfixture.Record(28, "arr", rdbfixture.Array(-1, rdbfixture.ArrayElement{Index: 4, Value: int64(9)})),
	)
	want := rdbfixture.File(10,
		rdbfixture.Record(4, "th", rdbfixture.Len(3), rdbfixture.Str("a"), rdbfixture.Str("u"), rdbfixture.Str("b"), rdbfixture.Str("v"), rdbfixture.Str("c"), rdbfixture.Str("w")),
		rdbfixture.Record(4, "ta", rdbfixture.Len(2), rdbfixture.Str("x"), rdbfixture.Str("1"), rdbfixture.Str("y"), rdbfixture.Str("22")),
		rdbfixture.Stream{Entries: 4, Pending: []uint64{0, 3}, Owned: []uint64{0, 3}}.Record("s5"),
		rdbfixture.Stream{Entries: 3, Pending: []uint64{1}, Owned: []uint64{1}}.Record("s4"),
		rdbfixture.Stream{Entries: 2}.Record("sp"),
		rdbfixture.Expiring(at, rdbfixture.Record(0, "k", rdbfixture.Str("v"))),
	)
	dir := t.TempDir()
	in, wantPath, out := filepath.Join(dir, "redis810.rdb"), filepath.Join(dir, "want.rdb"), filepath.Join(dir, "out.rdb")
	for p, b := range map[string][]byte{in: src, wantPath: want} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := run(t, context.Background(), "convert", in, "-o", out, "--target", "redis-7.0")
	if !errors.Is(err, decoder.ErrNewerType) || !strings.Contains(err.Error(), `key "s5"`) || !strings.Contains(err.Error(), "NACK zone of 2 entries") || !strings.Contains(err.Error(), "--drop-newer") {
		t.Fatalf("got %v, want ErrNewerType naming key s5, its NACK zone and --drop-newer", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused convert left %s (%v)", out, err)
	}
	stdout, stderr, err := run(t, context.Background(), "convert", in, "-o", out, "--target", "redis-7.0", "--drop-newer")
	if err != nil {
		t.Fatal(err)
	}
	const note = "dropped 1 array, 1 key metadata META-KMT1, 1 stream NACK zone, 1 stream producer metadata (--drop-newer)"
	if !strings.Contains(stdout+stderr, note) {
		t.Errorf("summary %q lacks %q", stdout+stderr, note)
	}
	wantState := readState(t, servertest.Start(t, wantPath, "--enable-debug-command", "yes").Addr)
	got := readState(t, servertest.Start(t, out, "--enable-debug-command", "yes").Addr)
	if len(wantState.digest) != 40 || len(wantState.streams) != 3 {
		t.Fatalf("the RDB 10 file read as digest %q, %d streams", wantState.digest, len(wantState.streams))
	}
	for _, d := range diffState(wantState, got, stateOptions{}) {
		t.Error(d)
	}
	// load sends the same keys to a server, counting what it dropped.
	srv := servertest.StartEmpty(t, "--enable-debug-command", "yes")
	stdout, stderr, err = run(t, context.Background(), "load", in, "--addr", srv.Addr, "--drop-newer")
	if err != nil {
		t.Fatalf("load: %v (%s)", err, stderr)
	}
	if !strings.Contains(stdout+stderr, note) {
		t.Errorf("load's summary %q lacks %q", stdout+stderr, note)
	}
	for _, d := range diffState(wantState, readState(t, srv.Addr), stateOptions{}) {
		t.Error("load: " + d)
	}
}
