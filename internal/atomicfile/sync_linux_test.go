package atomicfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// failSyncs makes every sync of data while writing fail with EIO until the test ends: the
// kernel reports a write error to one sync of a file only, so the syncs of the writeback
// goroutine must not swallow it.
func failSyncs(t *testing.T) {
	old := syncData
	syncData = func(uintptr) error { return unix.EIO }
	t.Cleanup(func() { syncData = old })
}

// writeSynced writes enough to f for its data to be synced while writing.
func writeSynced(t *testing.T, f *File) {
	t.Helper()
	chunk := bytes.Repeat([]byte{'x'}, 1<<20)
	for range (syncEvery + 2*writebackChunk) >> 20 {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCommitAfterFailedSync: a sync that failed while the file was written fails Commit,
// which leaves nothing at the path, and a file it was to replace as it was.
func TestCommitAfterFailedSync(t *testing.T) {
	failSyncs(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.rdb")
	os.WriteFile(path, []byte("good"), 0o644)
	f, err := Create(path, true)
	if err != nil {
		t.Fatal(err)
	}
	writeSynced(t, f)
	if err := f.Commit(); !errors.Is(err, unix.EIO) {
		t.Fatalf("Commit = %v, want EIO", err)
	}
	if es := entries(t, dir); len(es) != 1 || readFile(t, path) != "good" {
		t.Fatalf("directory holds %v", es)
	}
}

// TestCommitAllAfterFailedSync: one file of three whose sync failed while it was written
// fails CommitAll, which puts none of them in place.
func TestCommitAllAfterFailedSync(t *testing.T) {
	failSyncs(t)
	dir := t.TempDir()
	files := createFiles(t, dir)
	writeSynced(t, files[1])
	if err := CommitAll(files); !errors.Is(err, unix.EIO) {
		t.Fatalf("CommitAll = %v, want EIO", err)
	}
	if es := entries(t, dir); len(es) != 0 {
		t.Fatalf("directory holds %v", es)
	}
}
