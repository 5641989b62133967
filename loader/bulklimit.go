package loader

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"

	"github.com/rdbgen/rdbgen/resp"
)

// minMaxPayload is the least proto-max-bulk-len a server may have (CONFIG SET refuses less
// than 1 MiB): an argument up to it passes every server.
const minMaxPayload = 1 << 20

// A bulkWatch notes, for a server whose proto-max-bulk-len is unknown (the user may not run
// CONFIG GET), the commands with an argument over minMaxPayload: such an argument over the
// server's bound makes it close the connection, and the error then names the key, the size
// and the way to learn the bound instead of a bare "connection reset by peer".
type bulkWatch struct {
	emit func(*resp.Command) error
	mu   sync.Mutex
	key  []byte // the first key with an argument over minMaxPayload
	size int    // its largest argument
	n    int    // the keys with one
}

// watch notes cmd's largest argument if it passes minMaxPayload, and emits cmd.
func (w *bulkWatch) watch(cmd *resp.Command) error {
	size := 0
	for _, a := range cmd.Args {
		size = max(size, len(a))
	}
	if size > minMaxPayload {
		w.mu.Lock()
		if w.key == nil {
			w.key, w.size = append([]byte(nil), cmd.Key...), size
		}
		w.n++
		w.mu.Unlock()
	}
	return w.emit(cmd)
}

// explainBulk adds to err, when a server closed the connection (or refused a bulk length)
// after one of the watches sent an argument over minMaxPayload, the first such key and its
// size, that the server's proto-max-bulk-len is unknown, and how to learn and raise it.
func explainBulk(err error, watches ...*bulkWatch) error {
	if err == nil || !connectionBroken(err) {
		return err
	}
	for _, w := range watches {
		w.mu.Lock()
		key, size, n := w.key, w.size, w.n
		w.mu.Unlock()
		if key == nil {
			continue
		}
		more := ""
		if n > 1 {
			more = fmt.Sprintf(" (the first of %d such keys)", n)
		}
		return fmt.Errorf("%w: key %q went with an argument of %d bytes (its value or RESTORE payload)%s, over 1 MiB, and the server's proto-max-bulk-len is unknown, as the user may not run CONFIG GET: "+
			"learn it as a user who may (CONFIG GET proto-max-bulk-len), and raise it (CONFIG SET proto-max-bulk-len %d)", err, key, size, more, size)
	}
	return err
}

// connectionBroken tells whether err is a server's closing of the connection, or its refusal
// of a bulk length over its proto-max-bulk-len, which it answers so before closing.
func connectionBroken(err error) bool {
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "invalid bulk length") || strings.Contains(msg, "connection reset by peer") || strings.Contains(msg, "broken pipe")
}
