//go:build unix

package output

import (
	"os"
	"syscall"
)

// keepOwner gives the file at path the owner of fi, the file it replaced, when run as root.
func keepOwner(path string, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || os.Geteuid() != 0 {
		return nil
	}
	return os.Chown(path, int(st.Uid), int(st.Gid))
}
