package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestConvertNewerHeadersDigest: the dumps redis-server 7.0.15 wrote, their header changed to
// Valkey 9's VALKEY080 and to Redis 8.6-8.10's REDIS0013-0015, convert to redis-7.0 into
// files that redis-server 7.0.15 loads with the DEBUG DIGEST it has on the original.
func TestConvertNewerHeadersDigest(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"types.rdb", "encodings.rdb"} {
		orig := filepath.Join("testdata", "dumps", name)
		want := digest(t, servertest.Start(t, orig, "--enable-debug-command", "yes").Addr)
		b, err := os.ReadFile(orig)
		if err != nil {
			t.Fatal(err)
		}
		for _, head := range []string{"VALKEY080", "REDIS0013", "REDIS0014", "REDIS0015"} {
			in := filepath.Join(dir, head+"-"+name)
			if err := os.WriteFile(in, rdbfixture.SetHeader(b, head), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, head+"-"+name+".out.rdb")
			if _, _, err := run(t, context.Background(), "convert", in, "-o", out, "--target", "redis-7.0", "-q"); err != nil {
				t.Fatalf("%s as %s: %v", name, head, err)
			}
			got := digest(t, servertest.Start(t, out, "--enable-debug-command", "yes").Addr)
			if got != want || len(want) != 40 {
				t.Errorf("%s as %s: DEBUG DIGEST %s, want %s (the original's)", name, head, got, want)
			}
		}
	}
}

// valkeyHashFile writes a Valkey 9 file (VALKEY080) with a slot import, a hash with field
// TTLs (type 22) and a string.
func valkeyHashFile(t *testing.T) string {
	b := rdbfixture.Valkey(80,
		rdbfixture.SlotImport("0123456789abcdef0123456789abcdef01234567", [2]uint64{0, 100}),
		rdbfixture.Record(22, "vh", rdbfixture.ValkeyHash2([]string{"a", "1", "b", "2"}, []int64{-1, 4102444800000})),
		rdbfixture.Record(0, "s", rdbfixture.Str("v")))
	path := filepath.Join(t.TempDir(), "valkey9.rdb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConvertValkeyHashFieldTTLs: a Valkey 9 hash with field TTLs converts to redis-7.4
// keeping them, and to a target without field TTLs is refused naming the key.
func TestConvertValkeyHashFieldTTLs(t *testing.T) {
	in := valkeyHashFile(t)
	out := filepath.Join(t.TempDir(), "out.rdb")
	if _, _, err := run(t, context.Background(), "convert", in, "-o", out, "--target", "redis-7.4", "-q"); err != nil {
		t.Fatal(err)
	}
	var c record.Recorder
	if _, err := (decoder.File{Path: out}).Read(context.Background(), &c); err != nil {
		t.Fatal(err)
	}
	ttls := map[string]int64{}
	for _, r := range c.Records {
		for _, m := range r.Members {
			ttls[string(r.Key)+"/"+string(m.Name)] = m.ExpireAtMS
		}
	}
	if ttls["vh/a"] != 0 || ttls["vh/b"] != 4102444800000 || len(c.Records) != 2 {
		t.Errorf("read back %d records, field TTLs %v", len(c.Records), ttls)
	}
	_, _, err := run(t, context.Background(), "convert", in, "-o", filepath.Join(t.TempDir(), "o.rdb"), "--target", "redis-7.0")
	if err == nil || !strings.Contains(err.Error(), `key "vh"`) || !strings.Contains(err.Error(), "field TTLs") {
		t.Errorf("to redis-7.0: %v, want a refusal naming key \"vh\" and its field TTLs", err)
	}

	// valkey-9.0: RDB 11 has no field TTLs; the refusal names Valkey 9's own format, which
	// --rdb-version 80 writes: VALKEY080, read back with the field TTLs.
	_, _, err = run(t, context.Background(), "convert", in, "-o", filepath.Join(t.TempDir(), "o.rdb"), "--target", "valkey-9.0")
	if err == nil || !strings.Contains(err.Error(), `key "vh"`) || !strings.Contains(err.Error(), "--rdb-version 80") {
		t.Errorf("to valkey-9.0: %v, want a refusal naming key \"vh\" and --rdb-version 80", err)
	}
	vk := filepath.Join(t.TempDir(), "valkey.rdb")
	if _, _, err := run(t, context.Background(), "convert", in, "-o", vk, "--target", "valkey-9.0", "--rdb-version", "80", "-q"); err != nil {
		t.Fatal(err)
	}
	var v, src record.Recorder
	if _, err := (decoder.File{Path: vk}).Read(context.Background(), &v); err != nil {
		t.Fatal(err)
	}
	if _, err := (decoder.File{Path: in}).Read(context.Background(), &src); err != nil {
		t.Fatal(err)
	}
	head, err := os.ReadFile(vk)
	if err != nil || !bytes.HasPrefix(head, []byte("VALKEY080")) || !reflect.DeepEqual(v.Records, src.Records) {
		t.Errorf("VALKEY080: header %.9q, %v; read back %+v, want %+v", head, err, v.Records, src.Records)
	}
	if _, _, err := run(t, context.Background(), "convert", in, "-o", filepath.Join(t.TempDir(), "r.rdb"), "--target", "redis-7.4", "--rdb-version", "80"); err == nil || !strings.Contains(err.Error(), "redis-7.4 does not load") {
		t.Errorf("redis-7.4 at RDB 80: %v", err)
	}
}
