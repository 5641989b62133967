package inspect_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// FuzzRead checks that any input gives a report or a *decoder.Error, never a panic, and
// that a report adds up.
func FuzzRead(f *testing.F) {
	f.Add([]byte("REDIS0011\xfa\x09redis-ver\x057.2.4\xfe\x00\xfb\x01\x00\x00\x01k\x01v\xff\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte{})
	f.Add([]byte("REDIS0009\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := inspect.Read(context.Background(), bytes.NewReader(b), inspect.Options{Top: 3, Now: now, Decoder: decoder.Options{BufferSize: 64 << 10, MaxHeldBytes: 256}})
		if err != nil {
			var de *decoder.Error
			if !errors.As(err, &de) {
				t.Fatalf("error not a *decoder.Error: %v", err)
			}
			return
		}
		var keys uint64
		for _, d := range rep.DBs {
			keys += d.Keys
		}
		if keys != rep.Keys || rep.Memory.Keys != rep.Keys-rep.Expiry.Expired || rep.Expiry.Keys != rep.Expires || len(rep.Largest.BySize) > 3 {
			t.Fatalf("report does not add up: %+v", rep)
		}
	})
}
