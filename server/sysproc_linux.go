package server

import "syscall"

// childAttr makes the kernel kill a server whose parent dies without Close,
// so that a crashed test or command leaves no server behind.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
