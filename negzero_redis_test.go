package rdbgen_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/encoder"
	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestConvertKeepsNegativeZeroScore converts sorted sets holding the score -0, stored as the
// text "-0" in a ziplist (RDB 9) and a listpack (RDB 10) as Redis stores it, to every
// encoding: the server that loads the converted file says ZSCORE "-0" and has the digest of
// the server that loaded the original.
func TestConvertKeepsNegativeZeroScore(t *testing.T) {
	ctx := context.Background()
	sources := map[string][]byte{
		"ziplist":  fx.File(9, fx.Record(12, "z", fx.Str(string(fx.Ziplist(-1, "m", "-0", "n", "1.5"))))),
		"listpack": fx.File(10, fx.Record(17, "z", fx.Str(string(fx.Listpack(-1, "m", "-0", "n", "1.5"))))),
	}
	debug := []string{"--enable-debug-command", "yes"}
	for name, b := range sources {
		in := filepath.Join(t.TempDir(), "in.rdb")
		if err := os.WriteFile(in, b, 0o644); err != nil {
			t.Fatal(err)
		}
		orig := servertest.Client(t, servertest.Start(t, in, debug...).Addr, 0)
		want, err := orig.Do(ctx, "DEBUG", "DIGEST").Text()
		if err != nil {
			t.Fatal(err)
		}
		if s, err := orig.ZScore(ctx, "z", "m").Result(); err != nil || !negZero(s) {
			t.Fatalf("%s: the original's ZSCORE z m = %v, %v", name, s, err)
		}
		for _, target := range []string{"redis-6.2", "redis-7.0"} {
			skiplist := encoder.DefaultThresholds()
			skiplist.ZSetMaxListpackEntries = 0
			for _, thresholds := range []*encoder.Thresholds{nil, &skiplist} {
				out := filepath.Join(t.TempDir(), "out.rdb")
				f, err := os.Create(out)
				if err != nil {
					t.Fatal(err)
				}
				opts := rdbgen.Options{Encoder: encoder.Options{Target: target, Thresholds: thresholds}}
				if _, _, err := rdbgen.Convert(ctx, f, decoder.File{Path: in}, opts, rdbgen.ConvertOptions{}); err != nil {
					t.Fatal(err)
				}
				f.Close()
				args := debug
				if thresholds != nil { // a server that converts a small plain zset to a listpack loses the sign
					args = append(args, "--zset-max-listpack-entries", "0")
				}
				c := servertest.Client(t, servertest.Start(t, out, args...).Addr, 0)
				got, err := c.Do(ctx, "DEBUG", "DIGEST").Text()
				score, serr := c.ZScore(ctx, "z", "m").Result()
				enc, _ := c.ObjectEncoding(ctx, "z").Result()
				if err != nil || serr != nil || got != want || !negZero(score) {
					t.Errorf("%s to %s (%s): ZSCORE %v (%v), digest %s (%v), want -0 and %s", name, target, enc, score, serr, got, err, want)
				}
			}
		}
	}
}

// negZero tells whether f is -0.
func negZero(f float64) bool { return f == 0 && math.Signbit(f) }
