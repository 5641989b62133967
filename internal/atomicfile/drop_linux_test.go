package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident returns the share of the pages of the first n bytes of the file at path that
// are in the page cache.
func resident(t *testing.T, path string, n int) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := unix.Mmap(int(f.Fd()), 0, n, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	page := os.Getpagesize()
	vec := make([]byte, (n+page-1)/page)
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(n), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	in := 0
	for _, v := range vec {
		in += int(v & 1)
	}
	return float64(in) / float64(len(vec))
}

// TestWritebackDrops writes a file past dropFrom, the bytes the process writes before pages
// are dropped: the pages written are dropped from the page cache (but on tmpfs, where the
// pages are the file), the last chunks stay, and the file reads back whole.
func TestWritebackDrops(t *testing.T) {
	old := dropFrom
	dropFrom = writtenAll.Load() + 2*writebackChunk // two chunks into this file
	defer func() { dropFrom = old }()
	dir := t.TempDir()
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err != nil {
		t.Fatal(err)
	}
	tmpfs := fs.Type == unix.TMPFS_MAGIC
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	const writes = 6*writebackChunk/(1<<20) + 3
	path := filepath.Join(dir, "out")
	f, err := Create(path, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	for range writes {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	f.wb.stop() // the writeback goroutine is done with every chunk it was given
	early := resident(t, f.Name(), 3*writebackChunk)
	if tmpfs {
		if early < 0.99 {
			t.Errorf("tmpfs: %.0f%% of the first pages in the page cache", 100*early)
		}
	} else if early > 0.1 {
		t.Errorf("%.0f%% of the first %d MiB still in the page cache", 100*early, 3*writebackChunk>>20)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	last := resident(t, path, writes<<20)
	t.Logf("tmpfs %v: first chunks %.0f%% resident, the whole file %.0f%%", tmpfs, 100*early, 100*last)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, bytes.Repeat(chunk, writes)) {
		t.Fatalf("read back %d bytes, not the %d written", len(got), writes*len(chunk))
	}
}
