package atomicfile

import "golang.org/x/sys/unix"

// writebackWorks: Linux starts writeback of a range with sync_file_range(2).
const writebackWorks = true

// startWrite starts writing the dirty pages of n bytes from off of the file fd to disk,
// without waiting for them.
func startWrite(fd uintptr, off, n int64) {
	unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE)
}

// dropWritten waits for the pages of n bytes from off of the file fd to be written, and
// drops them from the page cache.
func dropWritten(fd uintptr, off, n int64) {
	flags := unix.SYNC_FILE_RANGE_WAIT_BEFORE | unix.SYNC_FILE_RANGE_WRITE | unix.SYNC_FILE_RANGE_WAIT_AFTER
	if unix.SyncFileRange(int(fd), off, n, flags) == nil {
		unix.Fadvise(int(fd), off, n, unix.FADV_DONTNEED)
	}
}

// syncData syncs the data of the file fd, and the metadata needed to read it back
// (fdatasync). Tests replace it.
var syncData = func(fd uintptr) error {
	return unix.Fdatasync(int(fd))
}
