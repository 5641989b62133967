package encoder

import (
	"fmt"
	"io"
)

// The Writer keeps two buffers. When the one being encoded into fills, a goroutine writes it
// to the destination while encoding goes on in the other; there is at most one write in
// flight, and writes reach the destination one at a time and in order.
//
// The checksum of each buffer is computed on its own, from zero, and combined into the file's
// (combineCRC), so it may be computed on either side: when a buffer fills while the previous
// write is still going, the encoding goroutine checksums the full buffer itself rather than
// wait idle; otherwise the background goroutine does, before writing. Whichever core is free
// does the work: with two idle cores both stay busy, and when the second is slow to come (one
// CPU, or a busy neighbour) the checksum stays on the first rather than waiting for it.

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
	full := w.buf
	var sum uint64
	summed := false
	if w.checksum && w.inflight != nil && !w.finished() {
		sum, summed = crc64Jones(0, full), true
	}
	if err := w.wait(); err != nil {
		return err
	}
	w.buf, w.spare = w.spare[:0], nil
	if w.buf == nil {
		w.buf = make([]byte, 0, cap(full))
	}
	w.inflight = full
	go w.write(full, sum, summed)
	return nil
}

// write adds buf to the checksum, given as sum when summed, and writes it; it runs on its
// own goroutine and reports on w.done.
func (w *Writer) write(buf []byte, sum uint64, summed bool) {
	if w.checksum {
		if !summed {
			sum = crc64Jones(0, buf)
		}
		w.crc = combineCRC(w.crc, sum, len(buf))
	}
	n, err := w.dst.Write(buf)
	if err == nil && n < len(buf) {
		err = io.ErrShortWrite
	}
	w.done <- flushResult{n, err}
}

// finished reports, without blocking, whether the write in flight has reported; the report
// is kept for wait.
func (w *Writer) finished() bool {
	if !w.reported {
		select {
		case w.result = <-w.done:
			w.reported = true
		default:
		}
	}
	return w.reported
}

// wait waits for the write in flight, if any, and takes its buffer back.
func (w *Writer) wait() error {
	if w.inflight == nil {
		return nil
	}
	if !w.reported {
		w.result = <-w.done
	}
	r := w.result
	w.reported = false
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
