package encoder_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// le is v as 8 bytes little-endian (rdbSaveMillisecondTime).
func le(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

// TestValkeyFormat writes Valkey 9's VALKEY080 (RDBVersion ValkeyVersion for valkey-9.0):
// the magic, a hash with field TTLs as Valkey's type 22 byte for byte as its rdbSaveObject
// lays it out (count; per field the field, the value, the expiry as 8 bytes little-endian,
// -1 for none), other types as for RDB 11; and which targets may ask for it.
func TestValkeyFormat(t *testing.T) {
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "valkey-9.0", RDBVersion: rdb.ValkeyVersion, CreatedAt: time.Unix(1700000000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	recs := record.Records{
		{Key: []byte("h"), Type: record.Hash, Members: []record.Member{
			{Name: []byte("a"), Value: []byte("u"), ExpireAtMS: 1700000000000}, {Name: []byte("b"), Value: []byte("w")}}},
		{Key: []byte("p"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}},
		{Key: []byte("s"), Type: record.Set, Members: []record.Member{{Name: []byte("x")}, {Name: []byte("y")}}},
	}
	if err := w.BeginDB(0, record.Counts{}); err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := recs[i].WriteTo(w); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	if !bytes.HasPrefix(file, []byte("VALKEY080")) || w.RDBVersion() != rdb.ValkeyVersion {
		t.Fatalf("header %q, version %d", file[:9], w.RDBVersion())
	}
	hash2 := append(append(append([]byte{22, 1, 'h', 2, 1, 'a', 1, 'u'}, le(1700000000000)...), 1, 'b', 1, 'w'), le(-1)...)
	if !bytes.Contains(file, hash2) {
		t.Errorf("no type 22 hash % x in\n% x", hash2, file)
	}
	if typ := recordType(t, file, "p"); typ != 16 { // a hash with no field TTL: a listpack, as RDB 11
		t.Errorf("p: type %d, want 16", typ)
	}
	if typ := recordType(t, file, "s"); typ != 20 { // set listpack, RDB 11
		t.Errorf("s: type %d, want 20", typ)
	}
	// The independent parser knows neither the magic nor type 22.
	err = parser.NewDecoder(bytes.NewReader(file)).Parse(func(parser.RedisObject) bool { return true })
	if err == nil {
		t.Error("hdt3213 v1.1.0 parsed VALKEY080")
	}

	for _, tt := range []struct {
		target string
		want   string // "" for a good one
	}{
		{"valkey-9.0", ""},
		{"", ""},
		{"valkey-8.1", "valkey-8.1 does not load"},
		{"redis-7.4", "redis-7.4 does not load"},
	} {
		caps, err := encoder.Options{Target: tt.target, RDBVersion: rdb.ValkeyVersion}.Check()
		switch {
		case tt.want == "" && (err != nil || caps.Target.Name != "valkey-9.0" || !caps.Can(rdb.ValkeyFormat) || !caps.Can(rdb.HashFieldTTL)):
			t.Errorf("%q: %v %+v", tt.target, err, caps)
		case tt.want != "" && (!errors.Is(err, rdb.ErrInvalidOption) || !strings.Contains(fmtErr(err), tt.want)):
			t.Errorf("%q: %v, want ErrInvalidOption naming %q", tt.target, err, tt.want)
		}
	}
	// valkey-9.0 keeps writing RDB 11 unless asked.
	if caps, err := (encoder.Options{Target: "valkey-9.0"}).Check(); err != nil || caps.RDBVersion != 11 || caps.Can(rdb.ValkeyFormat) || caps.Can(rdb.HashFieldTTL) {
		t.Errorf("valkey-9.0 by default: %v %+v", err, caps)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
