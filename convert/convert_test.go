package convert_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/filter"
	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// TestConvertFunctions converts a real Redis 7.0 dump holding two function libraries: into
// RDB 10 (with a filter that drops keys, which keeps them) the server on the file lists the
// dump's libraries with their code; into RDB 9 it is an error wrapping rdb.ErrCannotHold
// that names the library, unless DropFunctions, which counts them; into RESP they are
// FUNCTION LOAD commands, counted.
func TestConvertFunctions(t *testing.T) {
	ctx := context.Background()
	dump := redistest.WriteFunctionDump(t, false)
	orig := servertest.Start(t, dump)
	want := redistest.FunctionList(t, orig.Client())
	src := decoder.File{Path: dump}
	tests := []struct {
		name        string
		target      string
		opts        convert.Options
		wantErr     string
		carried     uint64
		dropped     uint64
		wantLibrary bool
	}{
		{"redis-7.0", "redis-7.0", convert.Options{}, "", 2, 0, true},
		{"filtered", "redis-7.0", convert.Options{Filter: filter.Options{Match: "none", Types: []record.Type{record.Stream}}}, "", 2, 0, true},
		{"redis-6.2", "redis-6.2", convert.Options{}, "RDB 10 (redis-7.0 or later), and redis-6.2 writes RDB 9", 0, 0, false},
		{"dropped", "redis-6.2", convert.Options{DropFunctions: true}, "", 0, 2, false},
		{"dropped 7.0", "redis-7.0", convert.Options{DropFunctions: true}, "", 0, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, stats, err := convert.Write(ctx, &out, src, output.Options{Encoder: encoder.Options{Target: tt.target}}, tt.opts)
			if tt.wantErr != "" {
				if !errors.Is(err, rdb.ErrCannotHold) || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), `function library "`) {
					t.Fatalf("Convert: %v; want rdb.ErrCannotHold naming the library and saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || stats.Functions != tt.carried || stats.FunctionsDropped != tt.dropped {
				t.Fatalf("Convert: %v, %d libraries carried, %d dropped; want %d, %d", err, stats.Functions, stats.FunctionsDropped, tt.carried, tt.dropped)
			}
			path := filepath.Join(t.TempDir(), "out.rdb")
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			got := redistest.FunctionList(t, servertest.Start(t, path).Client())
			if tt.wantLibrary && !reflect.DeepEqual(got, want) || !tt.wantLibrary && len(got) != 0 {
				t.Fatalf("the server on the file lists %v; want %v", got, want)
			}
		})
	}

	conv, stats, err := convert.Through(src, encoder.Options{Target: "redis-7.0"}, convert.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cmds bytes.Buffer
	res, err := output.Write(ctx, &cmds, conv, output.Options{RESP: &resp.Options{}})
	if err != nil || res.Commands == 0 || stats.Functions != 2 || bytes.Count(cmds.Bytes(), []byte("FUNCTION\r\n$4\r\nLOAD\r\n")) != 2 {
		t.Fatalf("RESP commands: %v, %d libraries", err, stats.Functions)
	}
}

// TestCount counts a real Redis 7.0 dump's records, two function libraries among them,
// passing every one on (the libraries left out under DropFunctions, counted).
func TestCount(t *testing.T) {
	src := decoder.File{Path: redistest.WriteFunctionDump(t, false)}
	var all record.Recorder
	if err := src.WriteTo(t.Context(), &all); err != nil {
		t.Fatal(err)
	}
	for _, drop := range []bool{false, true} {
		conv, stats, err := convert.Count(src, convert.Options{DropFunctions: drop})
		if err != nil {
			t.Fatal(err)
		}
		var got record.Recorder
		if err := conv.WriteTo(t.Context(), &got); err != nil {
			t.Fatal(err)
		}
		passed, dropped := uint64(2), uint64(0)
		if drop {
			passed, dropped = 0, 2
		}
		if stats.Read != uint64(len(all.Records)) || len(got.Records) != len(all.Records) || len(all.Functions) != 2 ||
			uint64(len(got.Functions)) != passed || stats.Functions != passed || stats.FunctionsDropped != dropped {
			t.Errorf("drop %v: read %d of %d records, %d passed on; %d libraries passed on, counted %d, dropped %d",
				drop, stats.Read, len(all.Records), len(got.Records), len(got.Functions), stats.Functions, stats.FunctionsDropped)
		}
	}
}

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
			skiplist := rdb.DefaultThresholds()
			skiplist.ZSetMaxListpackEntries = 0
			for _, thresholds := range []*rdb.Thresholds{nil, &skiplist} {
				out := filepath.Join(t.TempDir(), "out.rdb")
				f, err := os.Create(out)
				if err != nil {
					t.Fatal(err)
				}
				opts := output.Options{Encoder: encoder.Options{Target: target, Thresholds: thresholds}}
				if _, _, err := convert.Write(ctx, f, decoder.File{Path: in}, opts, convert.Options{}); err != nil {
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
