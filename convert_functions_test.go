package rdbgen_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/record"
)

// TestConvertFunctions converts a real Redis 7.0 dump holding two function libraries: into
// RDB 10 (with a filter that drops keys, which keeps them) the server on the file lists the
// dump's libraries with their code; into RDB 9 it is an error wrapping encoder.ErrCannotHold
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
		opts        rdbgen.ConvertOptions
		wantErr     string
		carried     uint64
		dropped     uint64
		wantLibrary bool
	}{
		{"redis-7.0", "redis-7.0", rdbgen.ConvertOptions{}, "", 2, 0, true},
		{"filtered", "redis-7.0", rdbgen.ConvertOptions{Filter: filter.Options{Match: "none", Types: []record.Type{record.Stream}}}, "", 2, 0, true},
		{"redis-6.2", "redis-6.2", rdbgen.ConvertOptions{}, "RDB 10 (redis-7.0 or later), and redis-6.2 writes RDB 9", 0, 0, false},
		{"dropped", "redis-6.2", rdbgen.ConvertOptions{DropFunctions: true}, "", 0, 2, false},
		{"dropped 7.0", "redis-7.0", rdbgen.ConvertOptions{DropFunctions: true}, "", 0, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, stats, err := rdbgen.Convert(ctx, &out, src, rdbgen.Options{Encoder: encoder.Options{Target: tt.target}}, tt.opts)
			if tt.wantErr != "" {
				if !errors.Is(err, encoder.ErrCannotHold) || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), `function library "`) {
					t.Fatalf("Convert: %v; want encoder.ErrCannotHold naming the library and saying %q", err, tt.wantErr)
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

	conv, stats, err := rdbgen.ConvertSource(src, encoder.Options{Target: "redis-7.0"}, rdbgen.ConvertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var cmds bytes.Buffer
	res, err := rdbgen.WriteRESP(ctx, &cmds, conv, rdbgen.RESPOptions{})
	if err != nil || res.Commands == 0 || stats.Functions != 2 || bytes.Count(cmds.Bytes(), []byte("FUNCTION\r\n$4\r\nLOAD\r\n")) != 2 {
		t.Fatalf("WriteRESP: %v, %d libraries", err, stats.Functions)
	}
}

// TestRebaseFileKeepsFunctions: a dump rebased in place (as an image does at its start)
// keeps its function libraries.
func TestRebaseFileKeepsFunctions(t *testing.T) {
	dump := redistest.WriteFunctionDump(t, true)
	if _, err := rdbgen.RebaseFile(context.Background(), dump, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	var c record.Collector
	if _, err := (decoder.File{Path: dump}).Read(context.Background(), &c); err != nil || len(c.Functions) != 2 {
		t.Fatalf("the rebased file: %v, %d libraries; want 2", err, len(c.Functions))
	}
}
