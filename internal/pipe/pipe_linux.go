package pipe

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

func grow(w io.Writer, size int) {
	f, ok := w.(*os.File)
	if !ok {
		return
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// Control, unlike Fd, leaves the descriptor in non-blocking mode for the runtime's poller.
	rc.Control(func(fd uintptr) {
		if n, err := unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0); err == nil && n < size {
			unix.FcntlInt(fd, unix.F_SETPIPE_SZ, size)
		}
	})
}
