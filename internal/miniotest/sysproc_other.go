//go:build !linux

package miniotest

import "syscall"

// childAttr is nil where the kernel has no parent-death signal: Close stops the server.
func childAttr() *syscall.SysProcAttr { return nil }
