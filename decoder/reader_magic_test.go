package decoder_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/decoder"
)

// TestMagic: what is not an RDB file is said to be so, showing its first bytes, however
// short; a file cut inside the header is told apart; Valkey 9's own format is named (issue
// 22, item 24).
func TestMagic(t *testing.T) {
	for _, tt := range []struct {
		in   string
		is   error
		want string
	}{
		{"hello\n", decoder.ErrNotRDB, `rdb byte 0: decoder: not an RDB file: it begins with "hello", not REDIS`},
		{"{}", decoder.ErrNotRDB, `rdb byte 0: decoder: not an RDB file: it begins with "{}", not REDIS`},
		{"", decoder.ErrNotRDB, "shorter than the 9-byte header"},
		{"RED", decoder.ErrNotRDB, "shorter than the 9-byte header"},
		{"REDIS0", decoder.ErrNotRDB, "shorter than the 9-byte header"},
		{"VALKEY080\xfe\x00\xff", decoder.ErrVersion, `rdb byte 0: unsupported RDB version: "VALKEY080" is Valkey 9's own format (RDB 80), which rdbgen does not read yet`},
		{"REDIS0x09", decoder.ErrNotRDB, `version "0x09" is not a number`},
	} {
		_, err := decoder.NewReader(strings.NewReader(tt.in), decoder.Options{})
		if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %v containing %q", tt.in, err, tt.is, tt.want)
		}
	}
	if err := decoder.MagicError([]byte("REDIS0012")); err != nil {
		t.Errorf("REDIS0012: %v", err)
	}
	if err := decoder.MagicError(bytes.Repeat([]byte("R"), 1)); err != nil {
		t.Errorf("R: %v", err)
	}
}
