package decoder

import (
	"context"
	"os"
	"testing"
)

// TestHashLogMemoryBound fills one partition with full buffers one short of the log's
// memory, exactly to it, and one past it: the buffers stay in memory up to the bound and
// only the one past it goes to a temporary file, and a hash added first and again last is
// found in each case (in memory twice, and once in memory and once in the file), no other.
func TestHashLogMemoryBound(t *testing.T) {
	const chunk, keep = 4, 3
	oldChunk, oldBatch, oldWrite, oldMemory := logChunk, logBatch, logWrite, logMemory
	logChunk, logBatch, logWrite, logMemory = chunk, chunk, chunk*8, keep*chunk*8
	defer func() { logChunk, logBatch, logWrite, logMemory = oldChunk, oldBatch, oldWrite, oldMemory }()
	for _, full := range []int{keep - 1, keep, keep + 1} {
		t.Setenv("TMPDIR", t.TempDir())
		l := newHashLog("keys", nil)
		n := full * chunk
		for i := range n - 1 {
			l.add(uint64(i+1) << 1) // top bits 0: partition 0
		}
		l.add(1 << 1)
		rep, err := l.repeated(context.Background())
		if _, ok := rep[1<<1|1]; err != nil || len(rep) != 1 || !ok {
			t.Errorf("%d full buffers: repeated %v, %v; want the hash 2 only", full, rep, err)
		}
		if spilled := l.f != nil; spilled != (full > keep) || l.held != min(full, keep)*chunk*8 {
			t.Errorf("%d full buffers: %d bytes in memory, file %v; want %d bytes, file %v", full, l.held, spilled, min(full, keep)*chunk*8, full > keep)
		}
		name := ""
		if l.f != nil {
			name = l.f.Name()
		}
		l.close()
		if _, err := os.Stat(name); name != "" && !os.IsNotExist(err) {
			t.Errorf("%d full buffers: %s left after close: %v", full, name, err)
		}
	}
}
