package encoder

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
)

// ttlField is a field of a hash with field TTLs.
type ttlField struct {
	name, value string
	at          int64
}

// writeTTLHash writes key with fields and the declared smallest expiry minAt.
func writeTTLHash(key string, minAt int64, fields ...ttlField) func(w *Writer) error {
	return func(w *Writer) error {
		if err := sinkOpenTTL(w, []byte(key), uint64(len(fields)), 0, minAt); err != nil {
			return err
		}
		for _, f := range fields {
			if err := sinkFieldTTL(w, []byte(f.name), []byte(f.value), f.at); err != nil {
				return err
			}
		}
		return sinkEnd(w)
	}
}

const year2100 = 4102444800000 // 0x3BB2CC3D800

func TestHashFieldTTLBytes(t *testing.T) {
	small := rdb.DefaultThresholds()
	small.HashMaxListpackEntries = 2
	tests := []struct {
		name   string
		limits *rdb.Thresholds
		write  func(w *Writer) error
		want   string
	}{{
		// The notes' §2.7, Redis 7.4.1: HSET h f1 v1 f2 v2 f3 v3, HPEXPIREAT h 4102444800000
		// FIELDS 1 f2.
		"type 25", nil,
		writeTTLHash("h", year2100, ttlField{"f1", "v1", 0}, ttlField{"f2", "v2", year2100}, ttlField{"f3", "v3", 0}),
		`1901 6800 d8c3 2cbb 0300 002d 2d00 0000
		 0900 8266 3203 8276 3203 f400 d8c3 2cbb
		 0300 0009 8266 3103 8276 3103 0001 8266
		 3303 8276 3303 0001 ff`,
	}, {
		// Expiries ascending, equal ones last added first, then the fields without one.
		"type 25 order", nil,
		writeTTLHash("o", 5, ttlField{"a", "1", 0}, ttlField{"b", "2", 9}, ttlField{"c", "3", 5},
			ttlField{"d", "4", 9}, ttlField{"e", "5", 0}),
		`19 016f 0500000000000000 2a
		 2a000000 0f00
		 8163 02 03 01 05 01
		 8164 02 04 01 09 01
		 8162 02 02 01 09 01
		 8161 02 01 01 00 01
		 8165 02 05 01 00 01 ff`,
	}, {
		// The layout of the notes' §2.8 (Redis 7.4.1, 600 fields): expiries relative to the
		// smallest, plus 1; 0 for none; fields in the order given.
		"type 24", &small,
		writeTTLHash("hb", year2100, ttlField{"f100", "v100", year2100}, ttlField{"f200", "v200", year2100 + 1000},
			ttlField{"f132", "v132", 0}),
		`18 0268 62 00d8c32cbb030000 03
		 01 0466313030 0476313030
		 43e9 0466323030 0476323030
		 00 0466313332 0476313332`,
	}, {
		// A hash whose fields may expire but none does (Header.FieldTTLs, MinFieldExpireAtMS
		// 0), as a dump holds one after HPERSIST: type 25 still, smallest expiry 0, each
		// field's expiry 0.
		"type 25 without expiries", nil,
		writeTTLHash("q", 0, ttlField{"a", "1", 0}),
		`19 0171 0000000000000000 0e
		 0e000000 0300 8161 02 01 01 00 01 ff`,
	}, {
		"large without expiries is type 4", &small,
		writeTTLHash("p", 0, ttlField{"a", "x", 0}, ttlField{"b", "y", 0}, ttlField{"c", "z", 0}),
		`04 0170 03 0161 0178 0162 0179 0163 017a`,
	}, {
		// A value over hash-max-listpack-value turns the held fields into type 24.
		"long value", nil,
		writeTTLHash("l", 7, ttlField{"a", "1", 7}, ttlField{"b", strings.Repeat("x", 65), 0}),
		`18 016c 0700000000000000 02 01 0161 c001 00 0162 4041` + strings.Repeat("78", 65),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := recordBytes(t, 12, Options{DisableCompression: true, Thresholds: tt.limits}, tt.write)
			if want := hexBytes(t, tt.want); !bytes.Equal(got, want) {
				t.Fatalf("got\n%x\nwant\n%x", got, want)
			}
		})
	}
}

func TestHashFieldTTLErrors(t *testing.T) {
	tests := []struct {
		name  string
		v     int
		write func(w *Writer) error
		want  error
		msg   string
	}{
		{"RDB 11", 11, writeTTLHash("k", 5, ttlField{"f", "v", 5}), rdb.ErrCannotHold, `key "k": a hash with field TTLs needs RDB 12 (redis-7.4 or later), and redis-7.2 writes RDB 11`},
		{"RDB 9", 9, writeTTLHash("k", 0, ttlField{"f", "v", 0}), rdb.ErrCannotHold, "redis-5.0 writes RDB 9"},
		{"below the smallest", 12, writeTTLHash("k", 5, ttlField{"f", "v", 4}), ErrFieldExpiry, `field "f" expires at 4`},
		{"none declared", 12, writeTTLHash("k", 0, ttlField{"f", "v", 4}), ErrFieldExpiry, "declared smallest 0"},
		{"past 2^48", 12, writeTTLHash("k", 5, ttlField{"f", "v", 1 << 48}), ErrFieldExpiry, "largest 281474976710655"},
		{"negative smallest", 12, writeTTLHash("k", -1, ttlField{"f", "v", 0}), ErrFieldExpiry, "smallest field expiry -1"},
		{"too few", 12, func(w *Writer) error {
			must(t, sinkOpenTTL(w, []byte("k"), 2, 0, 0))
			must(t, sinkFieldTTL(w, []byte("f"), []byte("v"), 0))
			return sinkEnd(w)
		}, ErrMemberCount, "declared 2, added 1"},
		{"expiry in a plain hash", 12, func(w *Writer) error {
			must(t, sinkOpen(w, tHash, []byte("k"), 2, 0))
			return sinkFieldTTL(w, []byte("f"), []byte("v"), 5)
		}, ErrFieldExpiry, "the hash declared no field expiry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := NewWriter(&bytes.Buffer{}, Options{RDBVersion: tt.v})
			must(t, err)
			must(t, w.BeginDB(0, DBInfo{}))
			if err := tt.write(w); !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("%v, want %v containing %q", err, tt.want, tt.msg)
			}
		})
	}
}

// TestDropFieldTTL writes a hash with field TTLs below RDB 12 with DropFieldTTL: it is the
// plain hash of the same fields.
func TestDropFieldTTL(t *testing.T) {
	fields := []ttlField{{"a", "1", 0}, {"b", "2", year2100}}
	for _, v := range []int{9, 11} {
		got := recordBytes(t, v, Options{DropFieldTTL: true}, writeTTLHash("h", year2100, fields...))
		want := recordBytes(t, v, Options{}, func(w *Writer) error {
			must(t, sinkOpen(w, tHash, []byte("h"), 2, 0))
			must(t, sinkField(w, []byte("a"), []byte("1")))
			must(t, sinkField(w, []byte("b"), []byte("2")))
			return sinkEnd(w)
		})
		if !bytes.Equal(got, want) {
			t.Fatalf("RDB %d: %x, want the plain hash %x", v, got, want)
		}
	}
	// From RDB 12 the TTLs stay.
	if got := recordBytes(t, 12, Options{DropFieldTTL: true}, writeTTLHash("h", year2100, fields...)); got[0] != typeHashListpackEx {
		t.Fatalf("RDB 12 with DropFieldTTL: type %d", got[0])
	}
}
