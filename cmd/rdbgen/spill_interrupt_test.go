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

// TestSpillInterrupted: merge and diff of two dumps of 1.5M disjoint keys each spill what
// they hold per key to a temporary file in $TMPDIR; a real SIGINT once that file exists
// ends them with exit status 130, and leaves neither the file nor any output behind.
func TestSpillInterrupted(t *testing.T) {
	bin := buildRdbgen(t)
	data := t.TempDir()
	a, b := filepath.Join(data, "a.rdb"), filepath.Join(data, "b.rdb")
	for _, args := range [][]string{{"-o", a}, {"--key-prefix", "other", "-o", b}} {
		if out, err := exec.Command(bin, append([]string{"--count", "1500000", "-q"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("generate: %v: %s", err, out)
		}
	}
	for _, c := range []struct {
		name, spill string // spill: the prefix of the temporary file
		args        []string
	}{
		{"merge", "rdbgen-keys-", []string{"merge", a, b, "-o", "OUT/m.rdb"}},
		{"diff", "rdbgen-diff-", []string{"diff", a, b}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp, out := t.TempDir(), t.TempDir()
			args := strings.Split(strings.ReplaceAll(strings.Join(c.args, "\x00"), "OUT", out), "\x00")
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			spilled := false
			for deadline := time.Now().Add(2 * time.Minute); !spilled && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				for _, n := range dirEntries(t, tmp) {
					spilled = spilled || strings.HasPrefix(n, c.spill)
				}
			}
			if !spilled {
				t.Fatalf("no %s* file appeared in $TMPDIR", c.spill)
			}
			cmd.Process.Signal(syscall.SIGINT)
			err := cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "interrupted") {
				t.Fatalf("exit code %d (%v), want 130; stderr %q", code, err, stderr.String())
			}
			if left := append(dirEntries(t, tmp), dirEntries(t, out)...); len(left) != 0 {
				t.Fatalf("left behind: %v", left)
			}
		})
	}
}
