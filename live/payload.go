package live

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// The two forms of the snapshot a primary sends a replica: "$<length>\r\n"
// and that many bytes (a snapshot saved to disk first), or, from a server that
// writes it to the socket as it goes (repl-diskless-sync), "$EOF:<mark>\r\n",
// the bytes, and the 40-byte mark again.

// markLen is the size of the diskless form's mark.
const markLen = 40

// readLine reads one line of the replication protocol, without its line end,
// skipping the empty lines that a primary sends while it prepares the snapshot.
// The line is valid until the next read from br.
func readLine(br *bufio.Reader) ([]byte, error) {
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			return nil, fmt.Errorf("%w: a line longer than %d bytes", ErrProtocol, br.Size())
		}
		if err != nil {
			return nil, err
		}
		if line = bytes.TrimRight(line, "\r\n"); len(line) > 0 {
			return line, nil
		}
	}
}

// payloadReader returns a reader of the snapshot that the header line opens and
// br holds next, and its size (-1 for the diskless form, whose size is unknown up
// front).
func payloadReader(line []byte, br *bufio.Reader) (io.Reader, int64, error) {
	if len(line) == 0 || line[0] != '$' {
		return nil, 0, fmt.Errorf("%w: %q where the snapshot's length belongs", ErrProtocol, clip(line))
	}
	if mark, ok := bytes.CutPrefix(line[1:], []byte("EOF:")); ok {
		if len(mark) != markLen {
			return nil, 0, fmt.Errorf("%w: an end mark of %d bytes, not %d", ErrProtocol, len(mark), markLen)
		}
		return newMarkReader(br, mark), -1, nil
	}
	n, err := strconv.ParseInt(string(line[1:]), 10, 64)
	if err != nil || n < 0 {
		return nil, 0, fmt.Errorf("%w: %q where the snapshot's length belongs", ErrProtocol, clip(line))
	}
	return &exactReader{r: br, n: n}, n, nil
}

// clip shortens a line for an error message.
func clip(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}

// exactReader reads n bytes from r: io.EOF after them, io.ErrUnexpectedEOF if r
// ends before.
type exactReader struct {
	r io.Reader
	n int64
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > e.n {
		p = p[:e.n]
	}
	k, err := e.r.Read(p)
	e.n -= int64(k)
	if err == io.EOF && e.n > 0 {
		err = io.ErrUnexpectedEOF
	}
	return k, err
}

// markReader reads the bytes of r up to the mark, and ends there. It holds back
// the last markLen bytes it has read until it knows they are not the mark.
type markReader struct {
	r       io.Reader
	mark    []byte
	buf     []byte // buf[from:to] is read and not yet handed out
	from    int
	to      int
	end     int // with found: the mark's offset in buf
	found   bool
	readErr error
}

const markReaderBuf = 64 << 10

func newMarkReader(r io.Reader, mark []byte) *markReader {
	return &markReader{r: r, mark: bytes.Clone(mark), buf: make([]byte, markReaderBuf+markLen)}
}

func (m *markReader) Read(p []byte) (int, error) {
	for {
		if m.found {
			if m.from == m.end {
				return 0, io.EOF
			}
			n := copy(p, m.buf[m.from:m.end])
			m.from += n
			return n, nil
		}
		// Bytes before the last markLen cannot begin the mark: it would be whole
		// in them, and the search would have found it.
		if safe := m.to - m.from - markLen; safe > 0 {
			n := copy(p, m.buf[m.from:m.from+safe])
			m.from += n
			return n, nil
		}
		if m.readErr != nil {
			if m.readErr == io.EOF {
				return 0, io.ErrUnexpectedEOF // the stream ended before the mark
			}
			return 0, m.readErr
		}
		m.to = copy(m.buf, m.buf[m.from:m.to])
		m.from = 0
		k, err := m.r.Read(m.buf[m.to:])
		m.to += k
		m.readErr = err
		if i := bytes.Index(m.buf[:m.to], m.mark); i >= 0 {
			m.found, m.end = true, i
		}
	}
}
