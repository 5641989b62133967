package pipe_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rdbgen/rdbgen/internal/pipe"
)

// capacity returns the capacity of the pipe f.
func capacity(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var ferr error
	rc.Control(func(fd uintptr) { n, ferr = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0) })
	if ferr != nil {
		t.Fatal(ferr)
	}
	return n
}

func TestGrow(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("pipe capacities are set on Linux only")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	before := capacity(t, w)
	pipe.Grow(w, 1<<20)
	if got := capacity(t, w); got != 1<<20 {
		t.Fatalf("capacity %d after Grow(1 MiB), %d before", got, before)
	}
	pipe.Grow(w, 4096) // never shrinks
	if got := capacity(t, w); got != 1<<20 {
		t.Fatalf("capacity %d after Grow(4096), want 1 MiB kept", got)
	}
	// Still usable by the runtime's poller: a deadline can be set (Fd would have made the
	// descriptor blocking, and SetDeadline fail).
	if err := w.SetWriteDeadline(time.Time{}); err != nil {
		t.Fatalf("SetWriteDeadline after Grow: %v", err)
	}

	// Anything that is not a pipe is left alone.
	f, err := os.Create(filepath.Join(t.TempDir(), "file"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pipe.Grow(f, 1<<20)
	pipe.Grow(new(bytes.Buffer), 1<<20)
}
