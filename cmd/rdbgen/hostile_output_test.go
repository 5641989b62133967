package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestGenerateKeepsDefaultManifest: an existing OUTPUT.manifest.json is refused without
// --force, as an existing --manifest is, before anything is written.
func TestGenerateKeepsDefaultManifest(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "d.rdb")
	os.WriteFile(out+".manifest.json", []byte("x\n"), 0o644)
	_, _, err := run(t, context.Background(), "--count", "10", "-o", out)
	if err == nil || !strings.Contains(err.Error(), "d.rdb.manifest.json: file exists (use --force to overwrite it)") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(out + ".manifest.json"); string(b) != "x\n" {
		t.Fatalf("manifest changed to %q", b)
	}
	if es := dirEntries(t, dir); len(es) != 1 {
		t.Fatalf("directory holds %v", es)
	}
	if _, _, err := run(t, context.Background(), "--count", "10", "-o", out, "--force", "-q"); err != nil {
		t.Fatalf("with --force: %v", err)
	}
}

// TestGenerateIntoFIFO writes into a FIFO with --force: the dump comes out of it, the FIFO
// stays, and no manifest is written.
func TestGenerateIntoFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte, 1)
	go func() {
		r, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer r.Close()
		b, _ := io.ReadAll(r)
		got <- b
	}()
	if _, _, err := run(t, context.Background(), "--count", "10", "-o", fifo, "--force", "-q"); err != nil {
		t.Fatal(err)
	}
	if b := <-got; !bytes.HasPrefix(b, []byte("REDIS0009")) {
		t.Fatalf("read %q from the FIFO", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO is now %v (%v)", fi.Mode(), err)
	}
	if es := dirEntries(t, dir); len(es) != 1 {
		t.Fatalf("directory holds %v", es)
	}
}

func TestGenerateEmptyOutput(t *testing.T) {
	checkBadInput(t, []string{"--count", "1", "-o", ""}, `--output "": an empty value is not allowed`)
}

// TestGenerateRemovesStaleTemporaryFile: a temporary file left by a killed run (its PID gone,
// its lock free) is removed by the next run into the directory, which says so on stderr.
func TestGenerateRemovesStaleTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".old.rdb.tmp-rdbgen-999999999-42")
	os.WriteFile(stale, make([]byte, 1000), 0o644)
	_, stderr, err := run(t, context.Background(), "--count", "1", "-o", filepath.Join(dir, "d.rdb"), "-q")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale file kept: %v", err)
	}
	if !strings.Contains(stderr, "removed "+stale+", the temporary file of an rdbgen run that was killed") {
		t.Fatalf("stderr %q", stderr)
	}
}
