//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// lock takes the lock that tells RemoveStale the file's writer is alive; the system drops
// it when the process ends, however it ends.
func lock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// alive reports whether a process with this ID exists (or may exist: any doubt is alive).
func alive(pid int) bool {
	if pid <= 0 {
		return true
	}
	err := syscall.Kill(pid, 0)
	return !errors.Is(err, syscall.ESRCH)
}

// removeUnlocked removes path if it can take its lock, which no live writer holds.
func removeUnlocked(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, nil // gone already, or not ours to open
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return false, nil // held: its writer is alive
	}
	if err := os.Remove(path); err != nil {
		return false, err
	}
	return true, nil
}

// lockDir takes an exclusive lock on the directory dir, waiting for it, and returns the
// function that releases it.
func lockDir(dir string) (func(), error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return func() { d.Close() }, nil // closing the last descriptor releases the lock
}
