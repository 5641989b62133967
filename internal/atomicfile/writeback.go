package atomicfile

import (
	"os"
	"sync/atomic"
)

// writebackChunk is how many bytes are written between two starts of writeback.
const writebackChunk = 8 << 20

// syncEvery is how many bytes of a file are written between two syncs of its data while it
// is being written (see writeback).
const syncEvery = 32 << 20

// dropFrom is how many bytes the files of the process write, all together, before the pages
// they write are dropped from the page cache once on disk (see writeback). Tests lower it.
var dropFrom int64 = 512 << 20

// writtenAll counts the bytes written by all the files of the process.
var writtenAll atomic.Int64

// A writeback starts the system writing a file's pages to disk while the file is still
// being written, a chunk at a time, so that the fsync of Commit finds little left to do and
// the dirty pages of a large file never pile up. Whole process, interleaved: 100M default
// keys, each into a fresh path, 4.2 s against 4.5 s without (medians of 3); at 10M, within
// the noise (0.465 s against 0.495 s in one set of 7, 0.497 s against 0.498 s in another).
//
// Every syncEvery bytes, the goroutine also syncs the file's data (fdatasync): where the
// disk's write cache is slow to flush, as on a VM whose host writes the guest's disk back on
// a flush, the flush is then spread over the writing instead of waiting whole in Commit's
// fsync. 10M default keys to a file, whole process, interleaved (medians of 9): 0.41-0.42 s
// against 0.50-0.57 s with writeback alone, where dd conv=fsync of the same bytes took
// 0.34-0.37 s; 100M keys 3.0 s against 3.5 s; split into 3 shards, 3.9-4.0 s against 4.5 s.
// A sync that fails is reported by stop, so that Commit fails too: the kernel reports a
// write error to one sync of a file descriptor only.
//
// Once the process has written dropFrom bytes, the pages of every chunk on disk, a chunk
// after its writeback started, are dropped from the page cache: a dataset of gigabytes no
// longer pushes the rest of the cache out, and the kernel copies each write into pages it
// has just freed rather than into pages new to it, which on this VM cost several times the
// copy (100M keys, 2.7 GB: 3.1-3.2 s against 6.0 s keeping every page, with 1.4 s of system
// time against 4 s). The count is the process's, not the file's, so that the shards of a
// split, 900 MB each, go the same way (100M keys into 3 shards: 4.0-4.2 s against 6.1-6.2 s
// with a count per file). A smaller dataset (10M keys are 270 MB) keeps its pages for the
// server that loads it next: dropping them cost it 0.02-0.04 s (medians of 11). Direct I/O
// (O_DIRECT from aligned buffers, written by a goroutine of their own) was measured too:
// 3.9-4.4 s at 100M keys, and a quarter slower than the page cache for 10M keys split into
// 3 shards. Where the system cannot (writeback_other.go), writeback does nothing.
type writeback struct {
	written, started int64
	ranges           chan [2]int64 // offset and length of each chunk to start
	done             chan struct{}
	stopped          bool
	synced           int64 // the bytes the last sync of the data covered; the goroutine's until stop
	err              error // the first sync's error; the goroutine's until stop
}

// startWriteback returns the writeback of f, a regular file written from offset 0, or nil
// where there is none.
func startWriteback(f *os.File) *writeback {
	rc, err := f.SyscallConn()
	if err != nil || !writebackWorks {
		return nil
	}
	wb := &writeback{ranges: make(chan [2]int64, 16), done: make(chan struct{})}
	dropFrom := dropFrom
	go func() {
		defer close(wb.done)
		var behind, dropped int64 // where the chunk before r ends; the bytes dropped
		for r := range wb.ranges {
			end := r[0] + r[1]
			// Hints: what they cannot do, Commit's fsync writes, and reports.
			rc.Control(func(fd uintptr) {
				startWrite(fd, r[0], r[1])
				if end-wb.synced >= syncEvery && wb.err == nil {
					wb.err = syncData(fd)
					wb.synced = end
				}
				if behind > dropped && writtenAll.Load() >= dropFrom {
					dropWritten(fd, dropped, behind-dropped)
					dropped = behind
				}
			})
			behind = end
		}
	}()
	return wb
}

// add counts n more bytes written, and starts the writeback of a full chunk. It never
// waits: while the writeback goroutine is busy, the chunk grows.
func (wb *writeback) add(n int) {
	if wb == nil || wb.stopped {
		return
	}
	wb.written += int64(n)
	writtenAll.Add(int64(n))
	if wb.written-wb.started < writebackChunk {
		return
	}
	select {
	case wb.ranges <- [2]int64{wb.started, wb.written - wb.started}:
		wb.started = wb.written
	default:
	}
}

// stop waits for the writeback goroutine, and returns the error of a sync of the data that
// failed; the file may be synced or closed then.
func (wb *writeback) stop() error {
	if wb == nil || wb.stopped {
		return nil
	}
	wb.stopped = true
	close(wb.ranges)
	<-wb.done
	return wb.err
}

// Write writes p to the file.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.wb.add(n)
	return n, err
}
