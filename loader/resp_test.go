package loader

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

func TestAppendCommand(t *testing.T) {
	got := appendCommand(nil, []byte("SET"), []byte("k"), []byte(""), []byte("a\r\nb"))
	want := "*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n$4\r\na\r\nb\r\n"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestReadReply(t *testing.T) {
	tests := []struct {
		in       string
		kind     byte
		text     string
		null     bool
		wantErr  error  // matched with errors.Is
		contains string // in the error
	}{
		{in: "+OK\r\n", kind: '+', text: "OK"},
		{in: "+\r\n", kind: '+', text: ""},
		{in: "-ERR no\r\n", kind: '-', text: "ERR no"},
		{in: ":-12\r\n", kind: ':', text: "-12"},
		{in: "$3\r\nabc\r\n", kind: '$', text: "abc"},
		{in: "$4\r\na\r\nb\r\n", kind: '$', text: "a\r\nb"},
		{in: "$0\r\n\r\n", kind: '$', text: ""},
		{in: "$-1\r\n", kind: '$', null: true},
		{in: "", wantErr: io.EOF},
		{in: "+OK", wantErr: io.ErrUnexpectedEOF},
		{in: "$5\r\nab", wantErr: io.ErrUnexpectedEOF},
		{in: "+OK\n", wantErr: errProtocol, contains: `reply "+OK\n"`},
		{in: "\r\n", wantErr: errProtocol},
		{in: "OK\r\n", wantErr: errProtocol, contains: "unexpected reply"},
		{in: "*1\r\n$1\r\na\r\n", wantErr: errProtocol, contains: "unexpected reply"},
		{in: ":x\r\n", wantErr: errProtocol, contains: `integer reply "x"`},
		{in: "$-2\r\n", wantErr: errProtocol, contains: "bulk length"},
		{in: "$x\r\n", wantErr: errProtocol, contains: "bulk length"},
		{in: "$2\r\nabcd", wantErr: errProtocol, contains: "not ended by CRLF"},
		{in: "$" + strconv.Itoa(maxBulkReply+1) + "\r\n", wantErr: errProtocol, contains: "bulk reply of"},
		{in: "-" + strings.Repeat("x", 70000) + "\r\n", wantErr: errProtocol, contains: "longer than"},
	}
	for _, tt := range tests {
		r := bufio.NewReaderSize(strings.NewReader(tt.in), 64<<10)
		kind, text, err := readReply(r)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("%.20q: got %v, want %v containing %q", tt.in, err, tt.wantErr, tt.contains)
			}
			continue
		}
		if err != nil || kind != tt.kind || string(text) != tt.text || (text == nil) != tt.null {
			t.Errorf("%q: got %c %q (nil %v) %v", tt.in, kind, text, text == nil, err)
		}
	}
}

func TestExpectOK(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"+OK\r\n", "OK", ""},
		{"+PONG\r\n", "PONG", ""},
		{"+PONG\r\n", "OK", "got +PONG, want +OK"},
		{"-WRONGPASS no\r\n", "OK", "WRONGPASS no"},
		{":1\r\n", "OK", "got :1, want +OK"},
	}
	for _, tt := range tests {
		err := expectOK(bufio.NewReader(strings.NewReader(tt.in)), tt.want)
		if (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err && !strings.HasSuffix(err.Error(), tt.err)) {
			t.Errorf("%q: got %v, want %q", tt.in, err, tt.err)
		}
	}
	var reply interface{ RedisError() }
	if err := expectOK(bufio.NewReader(strings.NewReader("-ERR x\r\n")), "OK"); !errors.As(err, &reply) {
		t.Errorf("an error reply is not a Redis error: %T", err)
	}
}

// FuzzReadReply feeds arbitrary bytes to the reply reader: it never panics,
// and a reply it accepts reads back the same once written out again.
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{"+OK\r\n", "-ERR x\r\n", ":1\r\n", "$3\r\nabc\r\n", "$-1\r\n", "$2\r\nabcd", "*1\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		kind, text, err := readReply(bufio.NewReader(bytes.NewReader(in)))
		if err != nil {
			return
		}
		var again []byte
		switch {
		case kind == '$' && text == nil:
			again = []byte("$-1\r\n")
		case kind == '$':
			again = appendBulk(nil, text)
		default:
			again = append(append([]byte{kind}, text...), '\r', '\n')
		}
		kind2, text2, err := readReply(bufio.NewReader(bytes.NewReader(again)))
		if err != nil || kind2 != kind || !bytes.Equal(text2, text) {
			t.Fatalf("%q read as %c %q, written as %q, read back as %c %q, %v", in, kind, text, again, kind2, text2, err)
		}
	})
}
