package encoder

import (
	"fmt"
	"io"
)

// The Writer keeps two buffers. When the one being encoded into fills, a goroutine adds it to
// the checksum and writes it to the destination while encoding goes on in the other, so the
// checksum and the system call overlap the encoding on a second core. There is at most one
// write in flight; writes reach the destination one at a time and in order.

// flushResult is what a background write reports.
type flushResult struct {
	n   int
	err error
}

// maybeFlush starts a background write of the buffer once it is full; the test is inlined
// into every record.
func (w *Writer) maybeFlush() error {
	if len(w.buf) < w.bufLimit {
		return nil
	}
	return w.flushFull()
}

// flushFull hands the full buffer to a background write and goes on in the other one.
func (w *Writer) flushFull() error {
	if err := w.wait(); err != nil {
		return err
	}
	full := w.buf
	w.buf, w.spare = w.spare[:0], nil
	if w.buf == nil {
		w.buf = make([]byte, 0, cap(full))
	}
	w.inflight = full
	go w.write(full)
	return nil
}

// write checksums and writes buf; it runs on its own goroutine and reports on w.done.
func (w *Writer) write(buf []byte) {
	if w.checksum {
		w.crc = crc64Jones(w.crc, buf)
	}
	n, err := w.dst.Write(buf)
	if err == nil && n < len(buf) {
		err = io.ErrShortWrite
	}
	w.done <- flushResult{n, err}
}

// wait waits for the write in flight, if any, and takes its buffer back.
func (w *Writer) wait() error {
	if w.inflight == nil {
		return nil
	}
	r := <-w.done
	w.stats.Bytes += int64(r.n)
	w.spare, w.inflight = w.inflight[:0], nil
	if r.err != nil {
		return w.fail(fmt.Errorf("encoder: write: %w", r.err))
	}
	return nil
}

// Flush writes everything encoded so far to the destination and waits for it.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.wait(); err != nil {
		return err
	}
	if w.checksum {
		w.crc = crc64Jones(w.crc, w.buf)
	}
	return w.writeBuf()
}

// writeBuf writes the buffer, already added to the checksum, and waits for it.
func (w *Writer) writeBuf() error {
	if len(w.buf) == 0 {
		return nil
	}
	n, err := w.dst.Write(w.buf)
	w.stats.Bytes += int64(n)
	if err == nil && n < len(w.buf) {
		err = io.ErrShortWrite
	}
	w.buf = w.buf[:0]
	if err != nil {
		return w.fail(fmt.Errorf("encoder: write: %w", err))
	}
	return nil
}
