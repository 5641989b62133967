package decoder_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// TestMagic: what is not an RDB file is said to be so, showing its first bytes, however
// short; a file cut inside the header is told apart; versions past the newest known of each
// magic (REDIS 15, VALKEY 80) are refused with the range known.
func TestMagic(t *testing.T) {
	for _, tt := range []struct {
		in   string
		is   error
		want string
	}{
		{"hello\n", decoder.ErrNotRDB, `rdb byte 0: decoder: not an RDB file: it begins with "hello", not REDIS or VALKEY`},
		{"{}", decoder.ErrNotRDB, `rdb byte 0: decoder: not an RDB file: it begins with "{}", not REDIS or VALKEY`},
		{"", decoder.ErrNotRDB, "shorter than the 9-byte header"},
		{"RED", decoder.ErrNotRDB, "shorter than the 9-byte header"},
		{"REDIS0", decoder.ErrNotRDB, "shorter than the 9-byte header"},
		{"VALKEY011\xfe\x00\xff", decoder.ErrVersion, `VALKEY011 (this reader knows VALKEY080, Valkey 9.0)`},
		{"VALKEY081\xfe\x00\xff", decoder.ErrVersion, `VALKEY081 (this reader knows VALKEY080, Valkey 9.0)`},
		{"VALKEYabc", decoder.ErrNotRDB, `version "abc" is not a number`},
		{"REDIS0016", decoder.ErrVersion, `16 (this reader knows 1 to 15)`},
		{"REDIS0x09", decoder.ErrNotRDB, `version "0x09" is not a number`},
	} {
		_, err := decoder.NewReader(strings.NewReader(tt.in), decoder.Options{})
		if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %v containing %q", tt.in, err, tt.is, tt.want)
		}
	}
	for _, head := range []string{"REDIS0012", "REDIS0015", "VALKEY080", "VALK"} {
		if err := decoder.MagicError([]byte(head)); err != nil {
			t.Errorf("%s: %v", head, err)
		}
	}
	if err := decoder.MagicError(bytes.Repeat([]byte("R"), 1)); err != nil {
		t.Errorf("R: %v", err)
	}
}
