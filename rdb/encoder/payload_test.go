package encoder

import (
	"errors"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
)

func TestCheckPayload(t *testing.T) {
	good := rdb.AppendPayloadTrailer([]byte{typeString, 1, 'v'}, 10)
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[(i+len(b))%len(b)] ^= 0x40
		return b
	}
	for _, c := range []struct {
		name    string
		payload []byte
		max     int
		version int
		ok      bool
	}{
		{"good", good, 10, 10, true},
		{"newer than the server", good, 9, 10, false},
		{"type byte changed", flip(0), 10, 10, false},
		{"version changed", flip(-10), 12, 10 ^ 0x40, false},
		{"checksum changed", flip(-1), 10, 10, false},
		{"trailer only", good[len(good)-10:], 10, 0, false},
		{"empty", nil, 10, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := rdb.CheckPayload(c.payload, c.max)
			if c.ok != (err == nil) || (!c.ok && !errors.Is(err, rdb.ErrPayload)) || v != c.version {
				t.Fatalf("version %d, %v", v, err)
			}
		})
	}
}

// FuzzCheckPayload: CheckPayload takes any bytes without panicking, and takes every object
// given its trailer.
func FuzzCheckPayload(f *testing.F) {
	f.Add([]byte{0, 1, 'v'}, uint16(10))
	f.Add([]byte{}, uint16(0))
	f.Fuzz(func(t *testing.T, b []byte, version uint16) {
		_, _ = rdb.CheckPayload(b, int(version))
		if len(b) == 0 {
			return
		}
		p := rdb.AppendPayloadTrailer(append([]byte(nil), b...), int(version))
		if v, err := rdb.CheckPayload(p, int(version)); err != nil || v != int(version) {
			t.Fatalf("version %d: %v", v, err)
		}
	})
}
