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
