package live

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

var testMark = strings.Repeat("0123456789", 4)

// readPayload reads what a primary sends after its reply to PSYNC, stream, through
// payloadReader, with reads of at most chunk bytes from the connection.
func readPayload(stream string, chunk int) ([]byte, int64, error) {
	var src io.Reader = strings.NewReader(stream)
	if chunk == 1 {
		src = iotest.OneByteReader(src)
	} else {
		src = iotest.HalfReader(src)
	}
	br := bufio.NewReaderSize(src, 64)
	line, err := readLine(br)
	if err != nil {
		return nil, 0, err
	}
	r, n, err := payloadReader(line, br)
	if err != nil {
		return nil, n, err
	}
	b, err := io.ReadAll(r)
	return b, n, err
}

func TestPayloadReader(t *testing.T) {
	long := strings.Repeat("REDIS0011 payload bytes ", 10000) // longer than a markReader's buffer
	tests := []struct {
		name, stream string
		want         string
		size         int64
		err          error
	}{
		{name: "length", stream: "$5\r\nREDIS", want: "REDIS", size: 5},
		{name: "newlines first", stream: "\n\n\n$5\r\nREDIS", want: "REDIS", size: 5},
		{name: "empty", stream: "$0\r\n", want: "", size: 0},
		{name: "length, the stream after it", stream: "$5\r\nREDIS*1\r\n$4\r\nPING\r\n", want: "REDIS", size: 5},
		{name: "length, long", stream: "$" + strconv.Itoa(len(long)) + "\r\n" + long, want: long, size: int64(len(long))},
		{name: "length, cut short", stream: "$6\r\nREDIS", err: io.ErrUnexpectedEOF},
		{name: "mark", stream: "$EOF:" + testMark + "\r\nREDIS" + testMark, want: "REDIS", size: -1},
		{name: "mark, the stream after it", stream: "$EOF:" + testMark + "\r\nREDIS" + testMark + "*1\r\n$4\r\nPING\r\n", want: "REDIS", size: -1},
		{name: "mark, long", stream: "\n$EOF:" + testMark + "\r\n" + long + testMark, want: long, size: -1},
		{name: "mark, nothing before it", stream: "$EOF:" + testMark + "\r\n" + testMark, want: "", size: -1},
		{name: "mark's start in the payload", stream: "$EOF:" + testMark + "\r\n" + testMark[:39] + "x" + testMark, want: testMark[:39] + "x", size: -1},
		{name: "no mark", stream: "$EOF:" + testMark + "\r\nREDIS" + testMark[:39], err: io.ErrUnexpectedEOF},
		{name: "short mark", stream: "$EOF:abc\r\nREDIS", err: ErrProtocol},
		{name: "no length", stream: "+OK\r\n", err: ErrProtocol},
		{name: "bad length", stream: "$-1\r\n", err: ErrProtocol},
		{name: "bad length digits", stream: "$12a\r\n", err: ErrProtocol},
		{name: "long line", stream: "$" + strings.Repeat("1", 100) + "\r\n", err: ErrProtocol},
		{name: "nothing", stream: "", err: io.EOF},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 0} {
			got, size, err := readPayload(tt.stream, chunk)
			switch {
			case tt.err != nil:
				if !errors.Is(err, tt.err) {
					t.Errorf("%s (chunk %d): error %v, want %v", tt.name, chunk, err, tt.err)
				}
			case err != nil:
				t.Errorf("%s (chunk %d): %v", tt.name, chunk, err)
			case string(got) != tt.want || size != tt.size:
				t.Errorf("%s (chunk %d): %d bytes (size %d), want %d (size %d)", tt.name, chunk, len(got), size, len(tt.want), tt.size)
			}
		}
	}
}

// FuzzPayloadReader checks that a payload in the diskless form comes back whole, whatever
// its bytes and however the connection splits them, and that no header line panics.
func FuzzPayloadReader(f *testing.F) {
	f.Add([]byte("REDIS0011\xfa\x09redis-ver"), []byte("$5"))
	f.Add([]byte(testMark[:20]), []byte("$EOF:"+testMark))
	f.Fuzz(func(t *testing.T, payload, header []byte) {
		if bytes.Index(append(bytes.Clone(payload), testMark...), []byte(testMark)) < len(payload) {
			return // the mark in the payload ends it there, as it does for Redis
		}
		for _, chunk := range []int{1, 0} {
			got, _, err := readPayload("$EOF:"+testMark+"\r\n"+string(payload)+testMark+"+trailing", chunk)
			if err != nil || !bytes.Equal(got, payload) {
				t.Fatalf("chunk %d: %q, %v; want %q", chunk, got, err, payload)
			}
		}
		_, _, _ = readPayload(string(header)+"\r\n"+string(payload), 0)
	})
}
