package encoder

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
)

// TestWriteFunction: a library is the opcode 245 and its code as a string, from RDB 10 on;
// below, or with code that names no library, it is an error naming it.
func TestWriteFunction(t *testing.T) {
	code := []byte("#!lua name=mylib\nreturn 1")
	tests := []struct {
		name    string
		version int
		code    []byte
		wantErr error
		wantMsg string
	}{
		{"RDB 10", 10, code, nil, ""},
		{"RDB 12", 12, code, nil, ""},
		{"RDB 9", 9, code, rdb.ErrCannotHold, `a function library needs RDB 10 (redis-7.0 or later), and redis-5.0 writes RDB 9`},
		{"RDB 7", 7, code, rdb.ErrCannotHold, "(redis-7.0 or later), and the file is written as RDB 7 for redis-5.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w, err := NewWriter(&out, Options{RDBVersion: tt.version, DisableCompression: true, CreatedAt: fixedTime})
			if err != nil {
				t.Fatal(err)
			}
			head := len(w.buf)
			err = w.WriteFunction(tt.code)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
					t.Fatalf("WriteFunction: %v; want %v saying %q", err, tt.wantErr, tt.wantMsg)
				}
				if w.Close() == nil {
					t.Fatal("Close after a failed WriteFunction succeeded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := append([]byte{opFunction2, byte(len(tt.code))}, tt.code...)
			if got := w.buf[head:]; !bytes.Equal(got, want) {
				t.Fatalf("wrote % x, want % x", got, want)
			}
			if err := w.Close(); err != nil || w.Stats().Functions != 1 {
				t.Fatalf("Close: %v, %d functions", err, w.Stats().Functions)
			}
		})
	}
}
