// Package pipe raises the capacity of a pipe that rdbgen writes into.
//
// A Linux pipe holds 64 KiB by default, so each 1 MiB buffer the encoder writes into one
// takes sixteen rounds of filling the pipe, waking the reader and waiting for it to empty
// the pipe again. A pipe as large as the buffer takes it in one write (`rdbgen -o - | …`:
// go test -run '^$' -bench DatasetPipe .).
package pipe

import "io"

// Grow raises the capacity of w to size bytes when w is an *os.File that is a pipe and the
// system allows it (on Linux, up to /proc/sys/fs/pipe-max-size without privileges, 1 MiB by
// default). It never fails: anything else, or a refusal, leaves w as it was.
func Grow(w io.Writer, size int) { grow(w, size) }
