package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/manifest"
)

// run runs rdbgen in-process with args and returns its stdout, stderr and error.
func run(t *testing.T, ctx context.Context, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := cliflags.Run(ctx, newApp(&stdout, &stderr), append([]string{"rdbgen"}, args...))
	return stdout.String(), stderr.String(), err
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestGenerateWritesFileAndManifest(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "dump.rdb")
	stdout, _, err := run(t, context.Background(), "--count", "1000", "-o", out, "--ttl", "1h", "--ttl-jitter", "1m", "--db", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "wrote 1000 keys (1000 with TTL) to "+out) {
		t.Fatalf("summary: %q", stdout)
	}
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(file[:9]) != "REDIS0009" {
		t.Fatalf("header %q", file[:9])
	}
	m, err := manifest.Read(manifest.PathFor(out))
	if err != nil {
		t.Fatal(err)
	}
	if m.Keys != 1000 || m.Expires != 1000 || m.DBs[2].Keys != 1000 || m.Bytes != int64(len(file)) || m.RDBVersion != 9 {
		t.Fatalf("manifest %+v", m)
	}
	if m.Dataset.KeyPrefix != "key" || m.Dataset.KeyStart != 100000001 || m.Dataset.TTL != time.Hour || m.Dataset.BaseTimeMS == 0 {
		t.Fatalf("manifest dataset %+v", m.Dataset)
	}
	if got := dirEntries(t, dir); len(got) != 2 {
		t.Fatalf("directory holds %v, want the dump and its manifest", got)
	}
}

func TestGenerateSubcommandAndJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.rdb")
	stdout, stderr, err := run(t, context.Background(), "generate", "--count", "10", "-o", out, "--json", "--target", "redis-7.2")
	if err != nil {
		t.Fatal(err)
	}
	var sum summary.Write
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if sum.Keys != 10 || sum.RDBVersion != 11 || sum.Target != "redis-7.2" || sum.Output != out || len(sum.Checksum) != 16 {
		t.Fatalf("summary %+v", sum)
	}
	if stderr != "" {
		t.Fatalf("stderr %q", stderr)
	}
}

func TestGenerateToStdout(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	stdout, stderr, err := run(t, context.Background(), "--count", "5", "-o", "-")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout, "REDIS0009") || !strings.Contains(stderr, "wrote 5 keys") {
		t.Fatalf("stdout %q, stderr %q", stdout, stderr)
	}
	if got := dirEntries(t, dir); len(got) != 0 {
		t.Fatalf("-o - left files: %v", got)
	}
}

func TestGenerateQuiet(t *testing.T) {
	stdout, stderr, err := run(t, context.Background(), "--count", "5", "-o", filepath.Join(t.TempDir(), "q.rdb"), "--quiet")
	if err != nil || stdout != "" || stderr != "" {
		t.Fatalf("err %v, stdout %q, stderr %q", err, stdout, stderr)
	}
}

func TestGenerateBadInput(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.rdb")
	os.WriteFile(existing, []byte("precious"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no count", []string{"-o", "x.rdb"}, "--count is required"},
		{"negative count", []string{"--count", "-5"}, `--count "-5": want a whole number, 0 or more`},
		{"non-numeric count", []string{"--count", "ten"}, `--count "ten": want a whole number, 0 or more`},
		{"unknown target", []string{"--count", "1", "--target", "redis-9"}, `unknown target "redis-9" (known: redis-5.0`},
		{"bad rdb version", []string{"--count", "1", "--rdb-version", "42"}, "rdb version 42"},
		{"rdb version past the target", []string{"--count", "1", "--target", "valkey-8.0", "--rdb-version", "12"}, "rdb version 12 is newer than valkey-8.0 loads (11)"},
		{"value size too big", []string{"--count", "1", "--value", "random", "--value-size", "600000000"}, "value size 600000000 out of range"},
		{"value size zero", []string{"--count", "1", "--value", "random", "--value-size", "0"}, "value size 0 out of range"},
		{"unknown value mode", []string{"--count", "1", "--value", "zeros"}, `value mode "zeros"`},
		{"nul in prefix", []string{"--count", "1", "--key-prefix", "a\x00b"}, "NUL byte"},
		{"bad ttl", []string{"--count", "1", "--ttl", "soon"}, `--ttl "soon": want a duration (90s, 5m, 1h)`},
		{"existing output", []string{"--count", "1", "-o", existing}, "existing.rdb: file exists (use --force to overwrite it)"},
		{"output is a directory", []string{"--count", "1", "-o", dir}, "is a directory"},
		{"missing directory", []string{"--count", "1", "-o", filepath.Join(dir, "nope", "d.rdb")}, "no such file or directory"},
		{"stray argument", []string{"--count", "1", "extra"}, `unexpected argument "extra"`},
		{"existing manifest", []string{"--count", "1", "-o", "new.rdb", "--manifest", existing}, "--manifest " + existing + ": file exists (use --force to overwrite it)"},
		{"manifest is the output", []string{"--count", "1", "-o", "new.rdb", "--manifest", "./new.rdb"}, "--manifest ./new.rdb is the output file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkBadInput(t, tt.args, tt.want) })
	}
	if b, _ := os.ReadFile(existing); string(b) != "precious" {
		t.Fatalf("existing file changed to %q", b)
	}
}

// checkBadInput runs rdbgen with args in a new empty directory and checks that it fails with
// one line holding want, and leaves nothing behind.
func checkBadInput(t *testing.T, args []string, want string) {
	t.Helper()
	t.Chdir(t.TempDir())
	_, _, err := run(t, context.Background(), args...)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("error is not one line: %q", err)
	}
	if got := dirEntries(t, "."); len(got) != 0 {
		t.Fatalf("a failed run left files: %v", got)
	}
}

func TestGenerateForceReplaces(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.rdb")
	os.WriteFile(out, []byte("old"), 0o644)
	if _, _, err := run(t, context.Background(), "--count", "3", "-o", out, "--force", "-q"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); !bytes.HasPrefix(b, []byte("REDIS")) {
		t.Fatalf("file not replaced: %q", b)
	}
}

func TestGenerateCancelledLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "dump.rdb")
	os.WriteFile(out, []byte("good"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := run(t, ctx, "--count", "1000000", "-o", out, "--force")
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "good" {
		t.Fatalf("the good file was clobbered: %q", b)
	}
	if got := dirEntries(t, dir); len(got) != 1 {
		t.Fatalf("directory holds %v", got)
	}
}

// TestGenerateDiskFull writes into a 1 MiB tmpfs: the run fails with ENOSPC and leaves nothing.
func TestGenerateDiskFull(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		redistest.Missing(t, "cannot mount a tmpfs here (%v); CI runs this as root", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	out := filepath.Join(dir, "dump.rdb")
	_, _, err := run(t, context.Background(), "--count", "1000000", "-o", out)
	if err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("got %v, want ENOSPC", err)
	}
	if got := dirEntries(t, dir); len(got) != 0 {
		t.Fatalf("a full disk left files: %v", got)
	}
}

// TestGenerateSignalLeavesNothing runs the real binary and interrupts it mid-way.
func TestGenerateSignalLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "rdbgen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		cmd := exec.Command(bin, "--count", "2000000000", "-o", filepath.Join(dir, "dump.rdb"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until the temporary file is growing, then interrupt.
		deadline := time.Now().Add(10 * time.Second)
		for len(dirEntries(t, dir)) == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Fatalf("%v: exit code %d (%v), want 130; stderr %q", sig, code, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "interrupted") {
			t.Fatalf("%v: stderr %q", sig, stderr.String())
		}
		if got := dirEntries(t, dir); len(got) != 0 {
			t.Fatalf("%v left files: %v", sig, got)
		}
	}
}
