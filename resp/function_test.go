package resp

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// TestWriteFunction: a library is FUNCTION LOAD [REPLACE] code, a command of no key; a
// server before 7.0, or a key still open, is an error naming the library.
func TestWriteFunction(t *testing.T) {
	code := []byte("#!lua name=mylib\nreturn 1")
	v := func(s string) Version { v, _ := ParseVersion(s); return v }
	tests := []struct {
		name    string
		o       Options
		open    bool // a hash is open
		want    string
		wantErr error
		wantMsg string
	}{
		{"newest", Options{}, false, "FUNCTION LOAD " + string(code), nil, ""},
		{"7.0", Options{Server: v("7.0")}, false, "FUNCTION LOAD " + string(code), nil, ""},
		{"replace", Options{Server: v("7.2"), ReplaceFunctions: true}, false, "FUNCTION LOAD REPLACE " + string(code), nil, ""},
		{"6.2", Options{Server: v("6.2")}, false, "", ErrServerTooOld, `function library "mylib": not supported by the server: function libraries need Redis 7.0 or later, not 6.2; leave them out with --drop-functions`},
		{"5.0 replace", Options{Server: v("5.0"), ReplaceFunctions: true}, false, "", ErrServerTooOld, "not 5.0"},
		{"open key", Options{}, true, "", nil, `function library "mylib": key "h" is still open`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			c, err := NewCommands(func(cmd *Command) error {
				if string(cmd.Args[0]) == "FUNCTION" && (cmd.Key != nil || cmd.Last) {
					t.Fatalf("FUNCTION LOAD with key %q, last %v", cmd.Key, cmd.Last)
				}
				got = append(got, string(bytes.Join(cmd.Args, []byte(" "))))
				return nil
			}, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if tt.open {
				if err := c.Begin(&record.Header{Key: []byte("h"), Type: record.Hash, Len: 1}); err != nil {
					t.Fatal(err)
				}
				got = nil
			}
			err = c.WriteFunction(code)
			if tt.wantMsg != "" {
				if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) || !strings.Contains(err.Error(), tt.wantMsg) || len(got) != 0 {
					t.Fatalf("WriteFunction: %v, sent %q; want an error saying %q", err, got, tt.wantMsg)
				}
				return
			}
			if err != nil || len(got) != 1 || got[0] != tt.want {
				t.Fatalf("WriteFunction: %v, sent %q; want %q", err, got, tt.want)
			}
		})
	}
}

// TestWriterCarriesFunctions: the RESP Writer writes a function library's command.
func TestWriterCarriesFunctions(t *testing.T) {
	var out bytes.Buffer
	w, err := NewWriter(&out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFunction([]byte("#!lua name=a\nreturn 1")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "*3\r\n$8\r\nFUNCTION\r\n$4\r\nLOAD\r\n$21\r\n#!lua name=a\nreturn 1\r\n"
	if out.String() != want || w.Count() != 1 {
		t.Fatalf("wrote %q (%d commands), want %q", out.String(), w.Count(), want)
	}
}
