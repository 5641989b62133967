package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildRdbgen builds the binary into a temporary directory.
func buildRdbgen(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "rdbgen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// startWriting starts bin with args and waits until its temporary file appears in dir.
func startWriting(t *testing.T, dir string, bin string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(60 * time.Second); len(dirEntries(t, dir)) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	return cmd, &stderr
}

// TestSpecHugeSetInterrupted: a set of 3·10^9 ids (of_family) stops on SIGTERM with exit
// status 130 and leaves nothing.
func TestSpecHugeSetInterrupted(t *testing.T) {
	bin := buildRdbgen(t)
	spec := writeSpec(t, "families:\n  - key: all\n    type: set\n    members: {of_family: users}\n  - name: users\n    key: \"u{id}\"\n    count: 3000000000\n    db: 1\n    value: x\n")
	dir := t.TempDir()
	cmd, stderr := startWriting(t, dir, bin, "--spec", spec, "-o", filepath.Join(dir, "dump.rdb"))
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("exit code %d (%v), want 130; stderr %q", code, err, stderr.String())
	}
	if got := dirEntries(t, dir); len(got) != 0 {
		t.Fatalf("left files: %v", got)
	}
}

// TestKilledRunCleanedUp: a run killed with SIGKILL leaves its temporary file; the next run
// into the directory removes it, says so, and leaves only its own output.
func TestKilledRunCleanedUp(t *testing.T) {
	bin := buildRdbgen(t)
	dir := t.TempDir()
	cmd, _ := startWriting(t, dir, bin, "--count", "2000000000", "-o", filepath.Join(dir, "big.rdb"))
	left := dirEntries(t, dir)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if len(left) != 1 || !strings.HasPrefix(left[0], ".big.rdb.tmp-rdbgen-") {
		t.Fatalf("the killed run left %v", left)
	}
	out, err := exec.Command(bin, "--count", "3", "-q", "-o", filepath.Join(dir, "small.rdb")).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "removed " + filepath.Join(dir, left[0]) + ", the temporary file of an rdbgen run that was killed\n"
	if string(out) != want {
		t.Fatalf("output %q, want %q", out, want)
	}
	got := dirEntries(t, dir)
	if strings.Join(got, " ") != "small.rdb small.rdb.manifest.json" {
		t.Fatalf("directory holds %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, left[0])); !os.IsNotExist(err) {
		t.Fatalf("temporary file kept: %v", err)
	}
}
