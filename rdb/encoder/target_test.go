package encoder

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
)

func TestTargetVersions(t *testing.T) {
	tests := []struct {
		target  string
		version int
		want    int    // the header's version, 0 for an error
		name    string // the target chosen
		msg     string
	}{
		{"", 0, 9, "redis-5.0", ""},
		{"", 10, 10, "redis-7.0", ""},
		{"", 11, 11, "redis-7.2", ""},
		{"", 12, 12, "redis-7.4", ""},
		{"", 7, 7, "redis-5.0", ""},
		{"redis-7.4", 9, 9, "redis-7.4", ""},
		{"redis-8.4", 0, 12, "redis-8.4", ""},
		{"valkey-9.0", 0, 11, "valkey-9.0", ""},
		{"valkey-8.0", 12, 0, "", "rdb version 12 is newer than valkey-8.0 loads (11)"},
		{"redis-7.0", 11, 0, "", "rdb version 11 is newer than redis-7.0 loads (10)"},
		{"redis-5.0", 10, 0, "", "rdb version 10 is newer than redis-5.0 loads (9)"},
		{"", 13, 0, "", "rdb version 13 (supported: 7 to 12)"},
	}
	for _, tt := range tests {
		w, err := NewWriter(&bytes.Buffer{}, Options{Target: tt.target, RDBVersion: tt.version})
		if tt.want == 0 {
			if !errors.Is(err, rdb.ErrInvalidOption) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("%q at %d: %v, want %q", tt.target, tt.version, err, tt.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q at %d: %v", tt.target, tt.version, err)
			continue
		}
		if w.RDBVersion() != tt.want || w.Target().Name != tt.name {
			t.Errorf("%q at %d: RDB %d for %s, want %d for %s", tt.target, tt.version, w.RDBVersion(), w.Target().Name, tt.want, tt.name)
		}
	}
}

// TestTargetVersionAux checks the AUX field naming the server: valkey-ver for Valkey, as
// Valkey 7.2.5 and 8.0 write it, and redis-ver for Redis.
func TestTargetVersionAux(t *testing.T) {
	for _, tt := range []struct{ target, aux string }{
		{"redis-7.2", "\x09redis-ver\x057.2.0"},
		{"redis-8.4", "\x09redis-ver\x058.4.0"},
		{"valkey-7.2", "\x0avalkey-ver\x057.2.4"},
		{"valkey-8.0", "\x0avalkey-ver\x058.0.0"},
	} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, Options{Target: tt.target})
		must(t, err)
		must(t, w.Close())
		if !bytes.HasPrefix(buf.Bytes()[9:], []byte("\xfa"+tt.aux)) {
			t.Errorf("%s: header %q, want the AUX field %q first", tt.target, buf.Bytes()[:40], tt.aux)
		}
		if tt.aux[1] == 'v' && bytes.Contains(buf.Bytes(), []byte("redis-ver")) {
			t.Errorf("%s writes redis-ver", tt.target)
		}
	}
}

// TestPlainNodesPerTarget checks which targets give a large list element its own plain node.
func TestPlainNodesPerTarget(t *testing.T) {
	big := strings.Repeat("b", 8193)
	for _, tt := range []struct {
		target string
		plain  bool
	}{
		{"redis-7.0", false}, {"redis-7.2", false}, {"redis-7.4", true}, {"redis-8.4", true},
		{"valkey-7.2", false}, {"valkey-8.0", true}, {"valkey-9.0", true},
	} {
		rec := recordBytes(t, 0, Options{Target: tt.target, DisableCompression: true}, func(w *Writer) error {
			return testCollection{kind: "list", names: []string{"a", big}}.write(w, "l")
		})
		_, b := decodeLength(t, rec[3:]) // node count
		_, b = decodeLength(t, b)        // the first node's container
		size, b := decodeLength(t, b)
		container, _ := decodeLength(t, b[size:])
		if (container == quicklistNodePlain) != tt.plain {
			t.Errorf("%s: the large element's node has container %d, want plain %v", tt.target, container, tt.plain)
		}
	}
}
