package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestStdinIsNotHeld: a dump read from stdin, gzipped or not, is read as a file is, through
// a temporary file in $TMPDIR removed at the end: a list past the reader's hold limit (here
// lowered to 1 MiB) converts, inspects and loads on a real server whole, as from a file,
// where it was held in memory before, and failed past the limit (issue 22, item 18).
func TestStdinIsNotHeld(t *testing.T) {
	defer func(n int) { maxHeldBytes = n }(maxHeldBytes)
	maxHeldBytes = 1 << 20
	const elements = 200_000 // about 13 MB of quicklist
	dump := generateWith(t, "--count", "1", "--type", "list", "--members", "200000", "--value", "random", "--target", "redis-7.0", "--no-compress")
	b, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, tt := range []struct {
		name  string
		stdin []byte
	}{{"plain", b}, {"gzipped", gz(t, string(b))}} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.rdb")
			if _, stderr, err := runStdin(t, tt.stdin, "convert", "-", "-o", out, "--target", "redis-7.0", "-q"); err != nil {
				t.Fatalf("convert -: %v: %s", err, stderr)
			}
			srv := servertest.Start(t, out)
			if n, err := srv.Client().LLen(context.Background(), "key100000001").Result(); err != nil || n != elements {
				t.Fatalf("LLEN %d, %v; want %d", n, err, elements)
			}
			stdout, stderr, err := runStdin(t, tt.stdin, "inspect", "-", "-q")
			if err != nil || !strings.Contains(stdout, "1 keys (0 with TTL), 200000 members") {
				t.Fatalf("inspect -: %v: %s%s", err, stdout, stderr)
			}
			if got := spooled(t, tmp); len(got) != 0 {
				t.Fatalf("left in $TMPDIR: %v", got)
			}
		})
	}
	// An input that is cut short leaves nothing in $TMPDIR either.
	_, _, err = runStdin(t, gz(t, string(b))[:1000], "convert", "-", "-o", filepath.Join(t.TempDir(), "o.rdb"))
	if err == nil || !strings.Contains(err.Error(), "read stdin: gzip") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("cut short: got %v", err)
	}
	if got := spooled(t, tmp); len(got) != 0 {
		t.Fatalf("left in $TMPDIR: %v", got)
	}
}

// spooled lists the temporary files of inputs in dir.
func spooled(t *testing.T, dir string) []string {
	var names []string
	for _, name := range dirEntries(t, dir) {
		if strings.HasPrefix(name, "rdbgen-input-") {
			names = append(names, name)
		}
	}
	return names
}
