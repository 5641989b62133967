package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestLiveInputs reads a live server (two function libraries, keys of every type but
// streams in dbs 0 and 3) with convert, import and inspect, by sync and by scan: each file
// holds what the server holds (DEBUG DIGEST, FUNCTION LIST), and no file names the password.
func TestLiveInputs(t *testing.T) {
	ctx := context.Background()
	src := servertest.Start(t, redistest.WriteFunctionDump(t, false), "--enable-debug-command", "yes",
		"--repl-diskless-sync-delay", "0")
	want := viewOf(t, src)
	if err := src.Client().ConfigSet(ctx, "requirepass", "s3cret").Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Client().ConfigSet(ctx, "requirepass", "") })
	url := "redis://:s3cret@" + src.Addr
	dir := t.TempDir()
	for _, args := range [][]string{
		{"convert", url, "--target", "redis-7.0"},
		{"convert", url, "--target", "redis-7.0", "--via", "scan"},
		{"import", url, "--target", "redis-7.0"},
	} {
		out := filepath.Join(dir, args[0]+strings.Join(args[2:], "")+".rdb")
		_, stderr, err := run(t, ctx, append(args, "-o", out)...)
		if err != nil {
			t.Fatalf("%q: %v: %s", args, err, stderr)
		}
		if got := viewOf(t, servertest.Start(t, out, "--enable-debug-command", "yes")); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: the file's server holds %+v, the source %+v", args, got, want)
		}
		if scan := strings.Contains(stderr, "not a point-in-time snapshot"); scan != strings.Contains(strings.Join(args, " "), "scan") {
			t.Errorf("%q: stderr %q", args, stderr)
		}
	}
	out := filepath.Join(dir, "db3.rdb")
	if _, stderr, err := run(t, ctx, "convert", url+"/3", "--target", "redis-7.0", "-o", out); err != nil {
		t.Fatalf("convert of db 3: %v: %s", err, stderr)
	}
	if n := servertest.KeyCount(t, servertest.Client(t, servertest.Start(t, out).Addr, 3)); n != 1 {
		t.Errorf("convert of db 3: %d keys in db 3, want 1", n)
	}
	stdout, stderr, err := run(t, ctx, "inspect", url, "--json")
	if err != nil || jsonField(t, stdout, "keys") != 7.0 {
		t.Errorf("inspect: %v, %s: %s", err, stderr, stdout)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if b, err := os.ReadFile(f); err != nil || strings.Contains(string(b), "s3cret") {
			t.Errorf("%s names the password (%v)", f, err)
		}
	}
}

// TestLiveInputErrors: the live flags refused where they do not apply, one line each.
func TestLiveInputErrors(t *testing.T) {
	ctx := context.Background()
	dump := redistest.WriteDump(t, map[string]string{"k": "v"})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", dump, "--via", "scan"}, "--via applies to a live server's input"},
		{[]string{"import", dump, "--insecure"}, "--insecure applies to a live server's input"},
		{[]string{"convert", "redis://127.0.0.1:1", "--via", "rdb"}, `via "rdb"`},
		{[]string{"convert", "redis://127.0.0.1:1", "--tls-ca", "ca.pem"}, "use rediss://"},
		{[]string{"convert", "redis://127.0.0.1:1/x"}, `"x" is no database number`},
		{[]string{"inspect", "redis://127.0.0.1:1/2"}, "leave the database out of the URL"},
		{[]string{"import", "redis://127.0.0.1:1", "--input-format", "json"}, "read as a dump"},
		{[]string{"convert", "redis://:pw@127.0.0.1:1"}, "connect to redis://127.0.0.1:1"},
		{[]string{"load", "redis://:pw@127.0.0.1:1", "--addr", "127.0.0.1:1"}, "load reads no live server"},
	} {
		out := filepath.Join(t.TempDir(), "out.rdb")
		_, _, err := run(t, ctx, append(tt.args, "-o", out)...)
		if tt.args[0] == "inspect" || tt.args[0] == "load" {
			_, _, err = run(t, ctx, tt.args...)
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "pw@") {
			t.Errorf("%q: %v, want one line saying %q", tt.args, err, tt.want)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("%q: wrote %s", tt.args, out)
		}
	}
}
