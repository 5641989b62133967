package miniotest

import "syscall"

// childAttr makes the kernel kill the MinIO server when the test process dies without
// stopping it, so that a crashed test leaves no server behind.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
