package loader

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The few pieces of RESP2 the mass loader needs: commands as arrays of bulk
// strings, and the replies AUTH, SELECT, PING, SET and ECHO give.

// appendCommand appends a command of bulk string arguments.
func appendCommand(dst []byte, args ...[]byte) []byte {
	dst = append(dst, '*')
	dst = strconv.AppendInt(dst, int64(len(args)), 10)
	dst = append(dst, '\r', '\n')
	for _, a := range args {
		dst = appendBulk(dst, a)
	}
	return dst
}

// appendBulk appends one bulk string.
func appendBulk(dst, b []byte) []byte {
	dst = append(dst, '$')
	dst = strconv.AppendInt(dst, int64(len(b)), 10)
	dst = append(dst, '\r', '\n')
	dst = append(dst, b...)
	return append(dst, '\r', '\n')
}

// replyError is an error reply, such as "OOM command not allowed…".
// Like go-redis's errors, it has a RedisError method.
type replyError string

func (e replyError) Error() string { return string(e) }

// RedisError marks replyError as an error reply of the server.
func (replyError) RedisError() {}

// maxBulkReply bounds the bulk replies read: the loader expects only its own
// short ECHO marker.
const maxBulkReply = 1 << 16

// errProtocol is wrapped by the errors for replies that are not RESP2 or not
// of a kind the loader expects.
var errProtocol = errors.New("protocol error")

// readReply reads one reply: a simple string, an error, an integer or a bulk
// string. It returns the reply's type byte and its text, which is valid
// until the next read from r. A null bulk string has type '$' and nil text.
func readReply(r *bufio.Reader) (byte, []byte, error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return 0, nil, fmt.Errorf("%w: reply line longer than %d bytes", errProtocol, r.Size())
		}
		if errors.Is(err, io.EOF) {
			if len(line) > 0 {
				err = io.ErrUnexpectedEOF
			}
		}
		return 0, nil, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return 0, nil, fmt.Errorf("%w: reply %q", errProtocol, line)
	}
	kind, text := line[0], line[1:len(line)-2]
	switch kind {
	case '+', '-':
		return kind, text, nil
	case ':':
		if _, err := strconv.ParseInt(string(text), 10, 64); err != nil {
			return 0, nil, fmt.Errorf("%w: integer reply %q", errProtocol, text)
		}
		return kind, text, nil
	case '$':
		n, err := strconv.Atoi(string(text))
		switch {
		case err != nil || n < -1:
			return 0, nil, fmt.Errorf("%w: bulk length %q", errProtocol, text)
		case n == -1:
			return kind, nil, nil
		case n > maxBulkReply:
			return 0, nil, fmt.Errorf("%w: bulk reply of %d bytes", errProtocol, n)
		}
		body := make([]byte, n+2)
		if _, err := io.ReadFull(r, body); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return 0, nil, err
		}
		if !bytes.HasSuffix(body, []byte("\r\n")) {
			return 0, nil, fmt.Errorf("%w: bulk reply not ended by CRLF", errProtocol)
		}
		return kind, body[:n], nil
	}
	return 0, nil, fmt.Errorf("%w: unexpected reply %q", errProtocol, line)
}

// expectOK reads a reply and returns nil if it is +OK (or +PONG for PING),
// a replyError for an error reply, and a protocol error otherwise.
func expectOK(r *bufio.Reader, want string) error {
	kind, text, err := readReply(r)
	switch {
	case err != nil:
		return err
	case kind == '-':
		return replyError(text)
	case kind != '+' || string(text) != want:
		return fmt.Errorf("%w: got %c%s, want +%s", errProtocol, kind, text, want)
	}
	return nil
}
