package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// serverView is what a server holds that a comparison of two servers looks at: DEBUG
// DIGEST and FUNCTION LIST WITHCODE.
type serverView struct {
	digest    string
	libraries []redis.Library
}

func viewOf(t *testing.T, inst *server.Instance) serverView {
	t.Helper()
	return serverView{digest(t, inst.Addr), redistest.FunctionList(t, inst.Client())}
}

// wantView starts a server on the dump and returns its view: the data the dump holds, as
// Redis itself reads it.
func wantView(t *testing.T, dump string) serverView {
	t.Helper()
	return viewOf(t, servertest.Start(t, dump, "--enable-debug-command", "yes"))
}

// jsonField returns a field of the --json summary stdout.
func jsonField(t *testing.T, stdout, field string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("--json output %q: %v", stdout, err)
	}
	return m[field]
}

// TestConvertFunctions: a real Redis 7.0 dump with two function libraries keeps them
// through convert and import into RDB 10+ files and through --format resp (FUNCTION LIST
// WITHCODE and DEBUG DIGEST as the server on the dump has them, counted in --json); a target
// without functions is an error naming the library and the way out, and writes nothing;
// --drop-functions goes on, counting them; a split gives every shard file the libraries.
func TestConvertFunctions(t *testing.T) {
	ctx := context.Background()
	dump := redistest.WriteFunctionDump(t, false)
	want := wantView(t, dump)
	if len(want.libraries) != 2 {
		t.Fatalf("the dump's server holds %v, want 2 libraries", want.libraries)
	}
	dir := t.TempDir()

	for _, args := range [][]string{
		{"convert", dump, "--target", "redis-7.0"},
		{"convert", dump, "--target", "redis-7.0", "--match", "nothing", "--db", "3"}, // filters keep libraries
		{"import", dump, "--target", "redis-7.0", "--no-compress"},
	} {
		out := filepath.Join(dir, strings.Join(args[2:], "")+".rdb")
		stdout, stderr, err := run(t, ctx, append(args, "-o", out, "--json")...)
		if err != nil {
			t.Fatalf("%q: %v: %s", args, err, stderr)
		}
		if got := jsonField(t, stdout, "functions"); got != 2.0 {
			t.Fatalf("%q: --json functions %v, want 2", args, got)
		}
		got := viewOf(t, servertest.Start(t, out, "--enable-debug-command", "yes"))
		if !reflect.DeepEqual(got.libraries, want.libraries) {
			t.Fatalf("%q: FUNCTION LIST %v, want %v", args, got.libraries, want.libraries)
		}
		if slices.Contains(args, "--match") {
			continue // the filter dropped keys
		}
		if got.digest != want.digest {
			t.Fatalf("%q: DEBUG DIGEST %s, want %s", args, got.digest, want.digest)
		}
	}

	// Targets without functions: an error naming the library, no file.
	for _, args := range [][]string{
		{"convert", dump},
		{"convert", dump, "--target", "redis-6.2"},
		{"import", dump, "--target", "redis-6.0"},
		{"convert", dump, "--target", "redis-6.2", "--format", "resp"},
	} {
		out := filepath.Join(dir, "refused")
		_, _, err := run(t, ctx, append(args, "-o", out)...)
		if err == nil || !strings.Contains(err.Error(), `function library "`) || !strings.Contains(err.Error(), "--drop-functions") ||
			!strings.Contains(err.Error(), "RDB 10") || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%q: %v; want a one-line error naming the library and --drop-functions", args, err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("%q: %s exists after the error", args, out)
		}
	}

	// --dry-run estimates a dump with libraries.
	if stdout, _, err := run(t, ctx, "convert", dump, "--target", "redis-7.0", "--dry-run", "-o", filepath.Join(dir, "dry.rdb")); err != nil || !strings.Contains(stdout, "dry run, nothing written: 7 keys") {
		t.Fatalf("--dry-run: %v: %s", err, stdout)
	}

	// --drop-functions: the keys, no library, counted.
	out := filepath.Join(dir, "dropped.rdb")
	stdout, _, err := run(t, ctx, "convert", dump, "--target", "redis-6.2", "--drop-functions", "-o", out)
	if err != nil || !strings.Contains(stdout, "left out 2 function libraries (--drop-functions)") {
		t.Fatalf("--drop-functions: %v: %s", err, stdout)
	}
	stdout, _, err = run(t, ctx, "import", dump, "--target", "redis-6.2", "--drop-functions", "-o", out, "-f", "--json")
	if err != nil || jsonField(t, stdout, "functions_dropped") != 2.0 {
		t.Fatalf("import --drop-functions --json: %v: %s", err, stdout)
	}
	got := viewOf(t, servertest.Start(t, out, "--enable-debug-command", "yes"))
	if got.digest != want.digest || len(got.libraries) != 0 {
		t.Fatalf("--drop-functions: digest %s (want %s), libraries %v (want none)", got.digest, want.digest, got.libraries)
	}

	// --format resp, through redis-cli --pipe, twice: the second time with REPLACE.
	cmds := filepath.Join(dir, "cmds.resp")
	if stdout, _, err := run(t, ctx, "convert", dump, "--target", "redis-7.0", "--format", "resp", "-o", cmds, "--json"); err != nil || jsonField(t, stdout, "functions") != 2.0 {
		t.Fatalf("--format resp: %v: %s", err, stdout)
	}
	piped := servertest.StartEmpty(t, "--enable-debug-command", "yes")
	servertest.Pipe(t, piped.Addr, cmds)
	if got := viewOf(t, piped); !reflect.DeepEqual(got, want) {
		t.Fatalf("--format resp piped: %+v, want %+v", got, want)
	}
	if _, _, err := run(t, ctx, "import", dump, "--target", "redis-7.0", "--format", "resp", "--replace-functions", "-o", cmds, "-f"); err != nil {
		t.Fatal(err)
	}
	servertest.Pipe(t, piped.Addr, cmds) // fails unless every command succeeds
	if got := viewOf(t, piped); !reflect.DeepEqual(got, want) {
		t.Fatalf("--format resp --replace-functions piped again: %+v, want %+v", got, want)
	}
	if _, _, err := run(t, ctx, "convert", dump, "--target", "redis-7.0", "--replace-functions", "-o", filepath.Join(dir, "r.rdb")); err == nil || !strings.Contains(err.Error(), "--replace-functions goes with") {
		t.Fatalf("--replace-functions into a file: %v", err)
	}

	// A split: every shard file holds both libraries.
	split := filepath.Join(dir, "split")
	if _, _, err := run(t, ctx, "convert", dump, "--db", "0", "--target", "redis-7.0", "--cluster-shards", "3", "-o", split); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		var c record.Collector
		p := filepath.Join(split, "shard-"+string(rune('0'+i))+".rdb")
		rd, err := decoder.File{Path: p}.Read(ctx, &c)
		if err != nil || len(c.Functions) != 2 || len(rd.Functions()) != 2 {
			t.Fatalf("%s: %v, %d libraries; want 2", p, err, len(c.Functions))
		}
	}
}

// TestLoadFunctions: load of a dump with function libraries, by every method, gives the
// server the dump's FUNCTION LIST WITHCODE and DEBUG DIGEST, counting the libraries; a
// server that has a library of the same name is an error naming it unless
// --replace-functions; --drop-functions goes on without them, counted.
func TestLoadFunctions(t *testing.T) {
	ctx := context.Background()
	dump := redistest.WriteFunctionDump(t, false)
	want := wantView(t, dump)
	for _, method := range []string{"sequential", "parallel", "pipeline", "mass"} {
		t.Run(method, func(t *testing.T) {
			srv := servertest.StartEmpty(t, "--enable-debug-command", "yes")
			stdout, stderr, err := run(t, ctx, "load", dump, "--addr", srv.Addr, "--method", method, "--json")
			if err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			if got := jsonField(t, stdout, "functions"); got != 2.0 {
				t.Fatalf("--json functions %v, want 2", got)
			}
			if got := viewOf(t, srv); !reflect.DeepEqual(got, want) {
				t.Fatalf("loaded: %+v, want %+v", got, want)
			}
			_, _, err = run(t, ctx, "load", dump, "--addr", srv.Addr, "--method", method)
			if err == nil || !strings.Contains(err.Error(), "already has a library of that name") || !strings.Contains(err.Error(), `function library "`) ||
				!strings.Contains(err.Error(), "--replace-functions") || !strings.Contains(err.Error(), "0 keys confirmed") {
				t.Fatalf("loaded again: %v; want an error naming the library, before any key", err)
			}
			stdout, _, err = run(t, ctx, "load", dump, "--addr", srv.Addr, "--method", method, "--replace-functions")
			if err != nil || !strings.Contains(stdout, "and 2 function libraries") {
				t.Fatalf("--replace-functions: %v: %s", err, stdout)
			}
			if got := viewOf(t, srv); !reflect.DeepEqual(got, want) {
				t.Fatalf("loaded again with REPLACE: %+v, want %+v", got, want)
			}
		})
	}
	srv := servertest.StartEmpty(t, "--enable-debug-command", "yes")
	stdout, _, err := run(t, ctx, "load", dump, "--addr", srv.Addr, "--drop-functions", "--json")
	if err != nil || jsonField(t, stdout, "functions_dropped") != 2.0 || jsonField(t, stdout, "functions") != nil {
		t.Fatalf("--drop-functions: %v: %s", err, stdout)
	}
	if got := viewOf(t, srv); got.digest != want.digest || len(got.libraries) != 0 {
		t.Fatalf("--drop-functions: %+v; want the keys and no library", got)
	}
	if _, _, err := run(t, ctx, "load", "--count", "10", "--addr", srv.Addr, "--drop-functions"); err == nil || !strings.Contains(err.Error(), "goes with a dump") {
		t.Fatalf("--drop-functions without a dump: %v", err)
	}
}
