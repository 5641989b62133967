//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package atomicfile

import "os"

// lock does nothing where there are no file locks.
func lock(*os.File) error { return nil }

// alive reports every process alive where its liveness cannot be told apart from a lock.
func alive(int) bool { return true }

// removeUnlocked removes nothing where there are no file locks.
func removeUnlocked(string) (bool, error) { return false, nil }

// lockDir locks nothing where there are no file locks.
func lockDir(string) (func(), error) { return func() {}, nil }
