package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteback writes a file of several chunks in buffer-sized writes: writeback is started
// chunk by chunk where the system can (Linux), and the data synced past syncEvery bytes; the
// file reads back whole after Commit, and Abort of a file whose writeback is running stops it
// and removes the file.
func TestWriteback(t *testing.T) {
	dir := t.TempDir()
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	const writes = (syncEvery+3*writebackChunk)/(1<<20) + 3
	for _, commit := range []bool{true, false} {
		path := filepath.Join(dir, "out")
		f, err := Create(path, true)
		if err != nil {
			t.Fatal(err)
		}
		for range writes {
			if _, err := f.Write(chunk); err != nil {
				t.Fatal(err)
			}
		}
		if writebackWorks && f.wb.started < 4*writebackChunk {
			t.Errorf("writeback started for %d bytes of %d", f.wb.started, writes*len(chunk))
		}
		if writebackWorks && commit {
			if err := f.wb.stop(); err != nil { // Commit stops it too
				t.Fatal(err)
			}
			if f.wb.synced < syncEvery {
				t.Errorf("data synced up to %d bytes of %d", f.wb.synced, writes*len(chunk))
			}
		}
		if !commit {
			if err := f.Abort(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(f.Name()); !os.IsNotExist(err) {
				t.Fatalf("temporary file after Abort: %v", err)
			}
			continue
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, bytes.Repeat(chunk, writes)) {
			t.Fatalf("read back %d bytes, not the %d written", len(got), writes*len(chunk))
		}
	}
}
