package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/server"
)

// Pieces of hand-made dumps (RDB 10, what Redis 7.0 writes).
func hmStr(k, v string) []byte {
	return append(append([]byte{0, byte(len(k))}, k...), append([]byte{byte(len(v))}, v...)...)
}
func hmExpMS(v int64) []byte    { return binary.LittleEndian.AppendUint64([]byte{0xfc}, uint64(v)) }
func hmExpS(v int32) []byte     { return binary.LittleEndian.AppendUint32([]byte{0xfd}, uint32(v)) }
func hmSelect(db byte) []byte   { return []byte{0xfe, db} }
func hmResize(k, e byte) []byte { return []byte{0xfb, k, e} }
func hmAux(k, v string) []byte {
	return append(append([]byte{0xfa, byte(len(k))}, k...), append([]byte{byte(len(v))}, v...)...)
}
func hmSet(k string, members ...string) []byte {
	b := append([]byte{2, byte(len(k))}, k...)
	b = append(b, byte(len(members)))
	for _, m := range members {
		b = append(append(b, byte(len(m))), m...)
	}
	return b
}

// handMade writes a dump of parts (after the header), with its EOF and checksum.
func handMade(t *testing.T, name string, parts ...[]byte) string {
	t.Helper()
	b := append([]byte("REDIS0010"), bytes.Join(parts, nil)...)
	b = append(b, 0xff)
	b = binary.LittleEndian.AppendUint64(b, rdb.Checksum(b))
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// serverDigest loads path into a redis-server 7.0 and returns its DEBUG DIGEST, or the
// error of a server that refuses the file.
func serverDigest(t *testing.T, path string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: redistest.RedisServer(t),
		Args: []string{"--enable-debug-command", "yes"}})
	if err != nil {
		return "", err
	}
	defer inst.Close(context.Background())
	return digest(t, inst.Addr), nil
}

// TestDumpsAsRedisReadsThem gives hand-made dumps that Redis reads its own way (expiries of
// 0, negative or before an AUX or SELECTDB; RESIZEDB counts that are off; a db in two
// sections; a set that repeats a member, a key twice) to a real redis-server 7.0 and to
// convert, import and load: each path ends with the server's DEBUG DIGEST of the original,
// or, where the server refuses the file, with an error naming the file, the offset, the key
// and what repeats; load refuses such a file before it sends any key.
func TestDumpsAsRedisReadsThem(t *testing.T) {
	future := int64(4102444800000)
	keep := hmStr("b", "kept")
	cases := []struct {
		name  string
		parts [][]byte
		flags []string
		// refused: the server refuses the file, and every path fails naming these.
		refused []string
		// same: with flags, the dump loads as this one does.
		same [][]byte
	}{
		{name: "expiry 0 ms", parts: [][]byte{hmSelect(0), hmExpMS(0), hmStr("a", "v"), keep}},
		{name: "expiry 0 s", parts: [][]byte{hmSelect(0), hmExpS(0), hmStr("a", "v"), keep}},
		{name: "negative expiry", parts: [][]byte{hmSelect(0), hmExpMS(-5), hmStr("a", "v"), keep}},
		{name: "expiry -1 ms is none", parts: [][]byte{hmSelect(0), hmExpMS(-1), hmStr("a", "v"), keep}},
		{name: "expiry before AUX", parts: [][]byte{hmSelect(0), hmExpMS(future), hmAux("x", "y"), hmStr("a", "v"), keep}},
		{name: "expiry before SELECTDB", parts: [][]byte{hmExpMS(future), hmSelect(0), hmStr("a", "v"), keep}},
		{name: "RESIZEDB counts an empty key", parts: [][]byte{hmSelect(0), hmResize(3, 0), hmStr("a", "v"), hmSet("e"), keep}},
		{name: "RESIZEDB off", parts: [][]byte{hmSelect(0), hmResize(9, 4), hmStr("a", "v"), keep}},
		{name: "SELECTDB twice", parts: [][]byte{hmSelect(0), hmResize(1, 0), hmStr("a", "v"), hmSelect(0), hmResize(1, 0), keep}},
		{name: "db in two sections", parts: [][]byte{hmSelect(0), hmResize(1, 0), hmStr("a", "v"), hmSelect(1), hmStr("c", "1"),
			hmSelect(0), hmResize(1, 1), hmExpMS(future), keep}},
		{name: "set member twice", parts: [][]byte{hmSelect(0), hmSet("s", "a", "b", "a"), keep},
			refused: []string{`key "s"`, `member "a"`, "rdb byte"}},
		{name: "key twice", parts: [][]byte{hmSelect(0), hmStr("a", "1"), keep, hmStr("a", "2")},
			refused: []string{`key "a"`, "duplicate key", "--on-duplicate", "rdb byte"}},
		{name: "key twice, first", parts: [][]byte{hmSelect(0), hmStr("a", "1"), keep, hmStr("a", "2")},
			flags: []string{"--on-duplicate", "first"}, same: [][]byte{hmSelect(0), hmStr("a", "1"), keep}},
		{name: "key twice, last", parts: [][]byte{hmSelect(0), hmStr("a", "1"), keep, hmStr("a", "2")},
			flags: []string{"--on-duplicate", "last"}, same: [][]byte{hmSelect(0), keep, hmStr("a", "2")}},
	}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dump := handMade(t, "dump.rdb", tc.parts...)
			want, err := serverDigest(t, dump)
			switch {
			case tc.refused != nil && err == nil:
				t.Fatal("redis-server 7.0 loads the dump: the case is wrong")
			case tc.refused == nil && tc.same == nil && err != nil:
				t.Fatalf("redis-server 7.0: %v", err)
			case tc.same != nil:
				if want, err = serverDigest(t, handMade(t, "same.rdb", tc.same...)); err != nil {
					t.Fatal(err)
				}
			}
			dir := t.TempDir()
			for _, cmd := range []string{"convert", "import"} {
				out := filepath.Join(dir, cmd+".rdb")
				_, stderr, err := run(t, ctx, append([]string{cmd, dump, "-o", out, "--target", "redis-7.0", "-q"}, tc.flags...)...)
				if tc.refused != nil {
					checkRefused(t, cmd, dump, err, tc.refused)
					if _, serr := os.Stat(out); serr == nil {
						t.Errorf("%s left %s behind", cmd, out)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v: %s", cmd, err, stderr)
				}
				if got, err := serverDigest(t, out); err != nil || got != want {
					t.Errorf("%s: DEBUG DIGEST %s (%v), want %s (the server's of the original)", cmd, got, err, want)
				}
			}
			srv := serverEmpty(t)
			stdout, stderr, err := run(t, ctx, append([]string{"load", dump, "--addr", srv.Addr, "--json"}, tc.flags...)...)
			if tc.refused != nil {
				checkRefused(t, "load", dump, err, tc.refused)
				// Refused before anything was sent: the keys before the repeat are not there.
				if n, err := srv.Client().DBSize(ctx).Result(); err != nil || n != 0 {
					t.Errorf("load: DBSIZE %d (%v) after the refusal, want 0", n, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("load: %v: %s", err, stderr)
			}
			if tc.same != nil && !strings.Contains(stdout, `"keys": 2,`) {
				t.Errorf("load: %s, want 2 keys: the duplicate left out", stdout)
			}
			// load gives a key whose expiry has passed 1 ms to live, and it is gone for every
			// reader at once; DEBUG DIGEST alone counts it until the server's expiry cycle, so
			// a SCAN of every key (which expires those it meets) comes first.
			if err := srv.Client().Do(ctx, "SCAN", 0, "COUNT", 1000).Err(); err != nil {
				t.Fatal(err)
			}
			if got := digest(t, srv.Addr); got != want {
				t.Errorf("load: DEBUG DIGEST %s, want %s (the server's of the original)", got, want)
			}
		})
	}
}

func serverEmpty(t *testing.T) *server.Instance {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, handMade(t, "empty.rdb", hmSelect(0)), server.Options{Backend: server.BackendProcess,
		RedisServer: redistest.RedisServer(t), Args: []string{"--enable-debug-command", "yes"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	return inst
}

// checkRefused checks that cmd failed with one line naming the dump and each of names.
func checkRefused(t *testing.T, cmd, dump string, err error, names []string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", cmd)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, dump) {
		t.Errorf("%s: %q is not one line naming %s", cmd, msg, dump)
	}
	for _, n := range names {
		if !strings.Contains(msg, n) {
			t.Errorf("%s: %q does not say %s", cmd, msg, n)
		}
	}
}

// TestMalformedListpackMessage reads a hash listpack whose header declares 3 fields and holds
// 2 (Redis loads it, then crashes on HGETALL) with inspect and convert: a one-line reading
// error naming the file, the offset and the key, not a writer's complaint.
func TestMalformedListpackMessage(t *testing.T) {
	lp := []byte{0, 0, 0, 0, 6, 0} // header: total bytes, then 6 entries declared
	for _, e := range []string{"f1", "v1", "f2", "v2"} {
		lp = append(append(append(lp, 0x80|byte(len(e))), e...), byte(1+len(e)))
	}
	lp = append(lp, 0xff)
	binary.LittleEndian.PutUint32(lp, uint32(len(lp)))
	obj := append(append([]byte{16, 1, 'h'}, byte(len(lp))), lp...)
	dump := handMade(t, "bad.rdb", hmSelect(0), obj)
	for _, args := range [][]string{
		{"inspect", dump},
		{"convert", dump, "-o", filepath.Join(t.TempDir(), "out.rdb")},
	} {
		_, _, err := run(t, context.Background(), args...)
		checkRefused(t, args[0], dump, err, []string{"rdb byte", `key "h"`, "header says 6 entries, it holds 4"})
		if err != nil && strings.Contains(err.Error(), "write") {
			t.Errorf("%s: %q talks about writing", args[0], err)
		}
	}
}
