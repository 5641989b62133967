package resp

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/rdbgen/rdbgen/record"
)

// AppendCommand appends a command as RESP: an array of bulk strings.
func AppendCommand(dst []byte, args ...[]byte) []byte {
	dst = append(dst, '*')
	dst = strconv.AppendInt(dst, int64(len(args)), 10)
	dst = append(dst, '\r', '\n')
	for _, a := range args {
		dst = AppendBulk(dst, a)
	}
	return dst
}

// AppendBulk appends one bulk string.
func AppendBulk(dst, b []byte) []byte {
	dst = append(dst, '$')
	dst = strconv.AppendInt(dst, int64(len(b)), 10)
	dst = append(dst, '\r', '\n')
	dst = append(dst, b...)
	return append(dst, '\r', '\n')
}

// writeBuffer is the size of a Writer's buffer.
const writeBuffer = 64 << 10

// A Writer is a record.Sink that writes each record's commands to an io.Writer as a RESP
// stream, the input of `redis-cli --pipe`. It buffers; its first error sticks; Close
// flushes the buffer but does not close the io.Writer.
type Writer struct {
	*Commands
	w     *bufio.Writer
	cmd   []byte
	count uint64 // commands written
}

var _ record.Sink = (*Writer)(nil)

// NewWriter returns a Writer of the commands of o's server to w.
func NewWriter(w io.Writer, o Options) (*Writer, error) {
	if w == nil {
		return nil, fmt.Errorf("%w: no io.Writer", ErrInvalidOption)
	}
	rw := &Writer{w: bufio.NewWriterSize(w, writeBuffer)}
	c, err := NewCommands(rw.write, o)
	if err != nil {
		return nil, err
	}
	rw.Commands = c
	return rw, nil
}

// write writes one command.
func (w *Writer) write(c *Command) error {
	w.cmd = AppendCommand(w.cmd[:0], c.Args...)
	if _, err := w.w.Write(w.cmd); err != nil {
		return fmt.Errorf("write resp: %w", err)
	}
	w.count++
	return nil
}

// Count returns the number of commands written so far.
func (w *Writer) Count() uint64 { return w.count }

// Close flushes the buffer and returns the first error. It does not close the
// io.Writer.
func (w *Writer) Close() error {
	defer w.Commands.Close()
	if err := w.Err(); err != nil {
		return err
	}
	if w.verb != "" || w.stream != nil || w.rs.open {
		return w.fail(fmt.Errorf("close: key %q is still open", w.key))
	}
	if err := w.w.Flush(); err != nil {
		return w.fail(fmt.Errorf("write resp: %w", err))
	}
	return nil
}
