package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/server"
)

// hmZSet2 is a skiplist-encoded sorted set (RDB type 5: binary double scores), its members
// named with their scores.
func hmZSet2(k string, scores ...float64) []byte {
	b := append([]byte{5, byte(len(k))}, k...)
	if n := len(scores); n < 64 {
		b = append(b, byte(n))
	} else {
		b = append(b, 0x40|byte(n>>8), byte(n))
	}
	for i, s := range scores {
		m := fmt.Sprintf("m%d", i)
		b = append(append(b, byte(len(m))), m...)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s))
	}
	return b
}

// digestOn loads path into the redis-server at bin and returns its DEBUG DIGEST; old says
// the server predates --enable-debug-command (before 7.0: DEBUG is always on).
func digestOn(t *testing.T, bin, path string, old bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var args []string
	if !old {
		args = []string{"--enable-debug-command", "yes"}
	}
	inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: bin, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(context.Background())
	return digest(t, inst.Addr)
}

// TestConvertNegativeZeroScores converts skiplist sorted sets with -0 scores: a small one,
// which Redis 7.0+ packs into a listpack as it loads it (storing -0 as the integer 0) and
// Redis 6.2 into a ziplist (keeping "-0"), and one past the listpack threshold, which keeps
// -0 everywhere; and a ziplist's "-0", which every server keeps. A server of each target started on the conversion holds what it holds
// started on the original: the same DEBUG DIGEST. Debian's 7.0 always; 6.2, 7.2, 7.4 and
// Valkey 8.0 where they are built.
func TestConvertNegativeZeroScores(t *testing.T) {
	big := make([]float64, 200)
	big[7] = math.Copysign(0, -1)
	orig := filepath.Join(t.TempDir(), "negzero.rdb") // RDB 9: Redis 6.2 loads it too
	if err := os.WriteFile(orig, fx.File(9,
		hmZSet2("small", math.Copysign(0, -1), 1.5, 0, -2),
		hmZSet2("onlyneg", math.Copysign(0, -1)),
		hmZSet2("big", big...),
		fx.Record(12, "ziplist", fx.Str(string(fx.Ziplist(4, "a", "-0", "b", "0"))))), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target, server string
		old            bool
	}{
		{"redis-7.0", "", false},
		{"redis-6.2", "redis-6.2.16", true},
		{"redis-7.2", "redis-7.2.6", false},
		{"redis-7.4", "redis-7.4.1", false},
		{"valkey-8.0", "valkey-8.0.1", false},
	} {
		t.Run(tc.target, func(t *testing.T) {
			bin := redistest.RedisServer(t)
			if tc.server != "" {
				bin = redistest.VersionServer(t, tc.server)
			}
			out := filepath.Join(t.TempDir(), "conv.rdb")
			if _, stderr, err := run(t, context.Background(), "convert", orig, "-o", out, "--target", tc.target, "-q"); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if got, want := digestOn(t, bin, out, tc.old), digestOn(t, bin, orig, tc.old); got != want || len(want) != 40 {
				t.Errorf("%s on the conversion: DEBUG DIGEST %s, want %s (the original's)", tc.server, got, want)
			}
		})
	}
}

// TestLoadNegativeZeroScores loads sorted sets with -0 scores whose ZADD on Redis 7.0+
// stores 0 in a listpack: a listpack's and a ziplist's "-0", which the server keeps as it
// loads the file, and a skiplist's -0, which it keeps in a set too large for a listpack; by
// each method that sends commands, and as RESP fed to redis-cli --pipe. The server given the
// commands holds what the server started on the file holds: the same DEBUG DIGEST.
func TestLoadNegativeZeroScores(t *testing.T) {
	redistest.RedisServer(t)
	big := make([]float64, 200)
	big[7] = math.Copysign(0, -1)
	orig := filepath.Join(t.TempDir(), "negzero.rdb") // RDB 10: Redis 7.0's listpacks
	if err := os.WriteFile(orig, fx.File(10,
		fx.Record(17, "listpack", fx.Str(string(fx.Listpack(6, "a", "-0", "b", "0", "c", "1.5")))),
		fx.Expiring(time.Now().Add(time.Hour).UnixMilli(), fx.Record(12, "ziplist", fx.Str(string(fx.Ziplist(4, "x", "-0", "y", "2"))))),
		fx.Record(17, "nozero", fx.Str(string(fx.Listpack(4, "p", "0", "q", "3")))),
		hmZSet2("skiplist", math.Copysign(0, -1), 1.5),
		hmZSet2("bigskiplist", big...)), 0o644); err != nil {
		t.Fatal(err)
	}
	want := digest(t, servertest.Start(t, orig, "--enable-debug-command", "yes").Addr)
	for _, method := range []string{"sequential", "parallel", "pipeline", "mass"} {
		t.Run(method, func(t *testing.T) {
			inst := servertest.StartEmpty(t, "--enable-debug-command", "yes")
			if _, stderr, err := run(t, t.Context(), "load", "--quiet", "--addr", inst.Addr, "--method", method, orig); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if got := digest(t, inst.Addr); got != want {
				t.Errorf("load --method %s: DEBUG DIGEST %s, want %s (the server's on the file)", method, got, want)
			}
		})
	}
	t.Run("convert --format resp", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out.resp")
		if _, stderr, err := run(t, t.Context(), "convert", "--quiet", "--format", "resp", "--target", "redis-7.0", "-o", out, orig); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		inst := servertest.StartEmpty(t, "--enable-debug-command", "yes")
		servertest.Pipe(t, inst.Addr, out)
		if got := digest(t, inst.Addr); got != want {
			t.Errorf("redis-cli --pipe of the RESP: DEBUG DIGEST %s, want %s (the server's on the file)", got, want)
		}
	})
}
