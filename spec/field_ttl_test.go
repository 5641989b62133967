package spec

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
)

const fieldTTLs = `families:
  - name: sessions
    key: "session:{id}"
    count: 50
    type: hash
    fields:
      user: {fake: username}
      token: {uuid: {}}
      csrf: {string: 16}
    field_ttl:
      token: 30m
      csrf: {ttl: 1h, jitter: 10m}
`

// TestFieldTTLs generates hashes whose fields expire: each field's expiry lies in its
// window from the base time, and the file needs RDB 12 unless the TTLs are dropped.
func TestFieldTTLs(t *testing.T) {
	s := mustParse(t, fieldTTLs, Params{Seed: 1, BaseTimeMS: base})
	var r recorder
	must(t, s.WriteTo(context.Background(), &r))
	f := s.Families[0]
	for i, rec := range r.Records {
		want, err := f.Record(uint64(i))
		must(t, err)
		if len(rec.Members) != 3 || !reflect.DeepEqual(rec.Members, want.Members) {
			t.Fatalf("record %d: %+v, recomputed %+v", i, rec.Members, want.Members)
		}
		user, token, csrf := rec.Members[0], rec.Members[1], rec.Members[2]
		if user.ExpireAtMS != 0 || token.ExpireAtMS != base+(30*time.Minute).Milliseconds() {
			t.Fatalf("record %d: user expires at %d, token at %d", i, user.ExpireAtMS, token.ExpireAtMS)
		}
		if d := csrf.ExpireAtMS - base - time.Hour.Milliseconds(); d < -(10*time.Minute).Milliseconds() || d > (10*time.Minute).Milliseconds() {
			t.Fatalf("record %d: csrf expires %d ms from base + 1h", i, d)
		}
	}
	write := func(opts encoder.Options) error {
		w, err := rdbsink.NewWriter(new(bytes.Buffer), opts)
		must(t, err)
		if err := s.WriteTo(context.Background(), w); err != nil {
			return err
		}
		return w.Close()
	}
	must(t, write(encoder.Options{Target: "redis-7.4"}))
	must(t, write(encoder.Options{Target: "redis-7.2", DropFieldTTL: true}))
	if err := write(encoder.Options{Target: "redis-7.2"}); !errors.Is(err, rdb.ErrCannotHold) || !strings.Contains(err.Error(), `"session:1"`) {
		t.Fatalf("RDB 11: %v", err)
	}
	if err := (mustParse(t, fieldTTLs, Params{Seed: 1})).WriteTo(context.Background(), &r); !errors.Is(err, ErrNoBaseTime) {
		t.Fatalf("without a base time: %v", err)
	}
}
