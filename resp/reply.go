package resp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrProtocol is wrapped by the errors for replies that are not RESP2.
var ErrProtocol = errors.New("protocol error")

// ReplyError is an error reply of the server, such as "OOM command not allowed…". Like
// go-redis's errors, it has a RedisError method.
type ReplyError string

func (e ReplyError) Error() string { return string(e) }

// RedisError marks ReplyError as an error reply of the server.
func (ReplyError) RedisError() {}

// MaxBulkReply bounds the bulk strings ReadReply returns (those inside arrays are
// skipped, whatever their size).
const MaxBulkReply = 1 << 16

// maxDepth bounds the nesting of arrays.
const maxDepth = 16

// ReadReply reads one RESP2 reply: a simple string, an error, an integer, a bulk string
// or an array. It returns the reply's type byte and, but for arrays, its text, valid until
// the next read from r; a null bulk string or array has nil text. An array's elements are
// read and dropped: a loader needs to know only that the command succeeded.
func ReadReply(r *bufio.Reader) (byte, []byte, error) {
	return readReply(r, 0, true)
}

func readReply(r *bufio.Reader, depth int, keep bool) (byte, []byte, error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return 0, nil, fmt.Errorf("%w: reply line longer than %d bytes", ErrProtocol, r.Size())
		}
		if errors.Is(err, io.EOF) && len(line) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return 0, nil, fmt.Errorf("%w: reply %q", ErrProtocol, line)
	}
	kind, text := line[0], line[1:len(line)-2]
	switch kind {
	case '+', '-':
		return kind, text, nil
	case ':':
		if _, err := strconv.ParseInt(string(text), 10, 64); err != nil {
			return 0, nil, fmt.Errorf("%w: integer reply %q", ErrProtocol, text)
		}
		return kind, text, nil
	case '$':
		n, err := strconv.Atoi(string(text))
		switch {
		case err != nil || n < -1:
			return 0, nil, fmt.Errorf("%w: bulk length %q", ErrProtocol, text)
		case n == -1:
			return kind, nil, nil
		case !keep:
			if _, err := r.Discard(n); err != nil {
				return 0, nil, unexpectedEOF(err)
			}
			crlf, err := r.Peek(2)
			if err != nil {
				return 0, nil, unexpectedEOF(err)
			}
			if !bytes.Equal(crlf, []byte("\r\n")) {
				return 0, nil, fmt.Errorf("%w: bulk reply not ended by CRLF", ErrProtocol)
			}
			_, _ = r.Discard(2)
			return kind, nil, nil
		case n > MaxBulkReply:
			return 0, nil, fmt.Errorf("%w: bulk reply of %d bytes", ErrProtocol, n)
		}
		body := make([]byte, n+2)
		if _, err := io.ReadFull(r, body); err != nil {
			return 0, nil, unexpectedEOF(err)
		}
		if !bytes.HasSuffix(body, []byte("\r\n")) {
			return 0, nil, fmt.Errorf("%w: bulk reply not ended by CRLF", ErrProtocol)
		}
		return kind, body[:n], nil
	case '*':
		n, err := strconv.Atoi(string(text))
		switch {
		case err != nil || n < -1:
			return 0, nil, fmt.Errorf("%w: array length %q", ErrProtocol, text)
		case depth >= maxDepth:
			return 0, nil, fmt.Errorf("%w: arrays nested more than %d deep", ErrProtocol, maxDepth)
		}
		for range n {
			if _, _, err := readReply(r, depth+1, false); err != nil {
				return 0, nil, unexpectedEOF(err)
			}
		}
		return kind, nil, nil
	}
	return 0, nil, fmt.Errorf("%w: unexpected reply %q", ErrProtocol, line)
}

// unexpectedEOF turns io.EOF in the middle of a reply into io.ErrUnexpectedEOF.
func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// ExpectStatus reads a reply and returns nil if it is the simple string want (OK, PONG),
// a ReplyError for an error reply, and a protocol error otherwise.
func ExpectStatus(r *bufio.Reader, want string) error {
	kind, text, err := ReadReply(r)
	switch {
	case err != nil:
		return err
	case kind == '-':
		return ReplyError(text)
	case kind != '+' || string(text) != want:
		return fmt.Errorf("%w: got %c%s, want +%s", ErrProtocol, kind, text, want)
	}
	return nil
}
