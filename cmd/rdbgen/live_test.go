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
		{[]string{"export", "redis://:pw@127.0.0.1:1"}, "export reads no live server (redis://127.0.0.1:1) yet: write it to a file first"},
		{[]string{"diff", dump, "redis://:pw@127.0.0.1:1"}, "diff reads no live server (redis://127.0.0.1:1) yet: write it to a file first"},
		{[]string{"merge", dump, "redis://:pw@127.0.0.1:1"}, "merge reads no live server (redis://127.0.0.1:1) yet: write it to a file first"},
		{[]string{"verify", "redis://:pw@127.0.0.1:1", "--backend", "offline"}, "verify reads no live server (redis://127.0.0.1:1) yet: write it to a file first"},
		{[]string{"convert", "redis://:pw@127.0.0.1:1", "--password-file", dump}, "a password in the URL and in --password-file: give one"},
		{[]string{"convert", "redis://127.0.0.1:1", "--password-file", "/nonexistent/pw"}, "--password-file: open /nonexistent/pw"},
	} {
		out := filepath.Join(t.TempDir(), "out.rdb")
		_, _, err := run(t, ctx, append(tt.args, "-o", out)...)
		if tt.args[0] == "inspect" || tt.args[0] == "load" || tt.args[0] == "diff" || tt.args[0] == "verify" {
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

// TestLivePassword reads (and loads, and verifies) a server that requires a password with
// every command that takes its URL or address, the password given as $REDISCLI_AUTH and as --password-file (a Kubernetes
// secret's file, with its newline), never in the URL; the same password in the URL as
// well is refused.
func TestLivePassword(t *testing.T) {
	ctx := context.Background()
	src := servertest.StartEmpty(t, "--repl-diskless-sync-delay", "0")
	if err := src.Client().ConfigSet(ctx, "requirepass", "s3cret").Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Client().ConfigSet(ctx, "requirepass", "") })
	url := "redis://" + src.Addr
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "password")
	if err := os.WriteFile(pwFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"convert", url, "-o", filepath.Join(dir, "c.rdb"), "-f"},
		{"convert", url, "--via", "scan", "-o", filepath.Join(dir, "s.rdb"), "-f"},
		{"import", url, "-o", filepath.Join(dir, "i.rdb"), "-f"},
		{"inspect", url},
		{"load", "--url", url, "--count", "3", "--key-prefix", "loaded:", "--manifest", filepath.Join(dir, "m.json"), "-f"},
		{"verify", "--url", url, "--manifest", filepath.Join(dir, "m.json")},
		{"verify", "--addr", src.Addr, "--manifest", filepath.Join(dir, "m.json")},
	}
	for _, how := range []string{"REDISCLI_AUTH", "--password-file"} {
		for _, args := range commands {
			if how == "REDISCLI_AUTH" {
				t.Setenv("REDISCLI_AUTH", "s3cret")
			} else {
				os.Unsetenv("REDISCLI_AUTH")
				args = append(args, "--password-file", pwFile)
			}
			if _, stderr, err := run(t, ctx, args...); err != nil {
				t.Errorf("%s: %q: %v: %s", how, args, err, stderr)
			}
		}
	}
	t.Setenv("REDISCLI_AUTH", "s3cret")
	_, _, err := run(t, ctx, "convert", "redis://:s3cret@"+src.Addr, "-o", filepath.Join(dir, "two.rdb"))
	if err == nil || !strings.Contains(err.Error(), "a password in the URL and in $REDISCLI_AUTH: give one") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a password in the URL and $REDISCLI_AUTH: %v", err)
	}
}
