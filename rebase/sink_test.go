package rebase_test

import (
	"errors"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

// headerSink keeps a copy of the last header and member it is given.
type headerSink struct {
	record.Discard
	h record.Header
	m record.Member
}

func (s *headerSink) Begin(h *record.Header) error { s.h = *h; return nil }
func (s *headerSink) Add(m *record.Member) error   { s.m = *m; return nil }

// TestSinkMovesHeaderExpiries: the key's expiry and its fields' smallest move together, so
// that a writer's check (no field below the smallest) still holds; the caller's header and
// member are left as they were.
func TestSinkMovesHeaderExpiries(t *testing.T) {
	var next headerSink
	s, err := rebase.New(&next, rebase.NewShift(time.UnixMilli(0), time.UnixMilli(500)))
	if err != nil {
		t.Fatal(err)
	}
	h := record.Header{Key: []byte("h"), Type: record.Hash, Len: 1, ExpireAtMS: 9000, MinFieldExpireAtMS: 4000}
	m := record.Member{Name: []byte("f"), Value: []byte("v"), ExpireAtMS: 4000}
	if err := errors.Join(s.Begin(&h), s.Add(&m), s.End(nil)); err != nil {
		t.Fatal(err)
	}
	if next.h.ExpireAtMS != 9500 || next.h.MinFieldExpireAtMS != 4500 || next.m.ExpireAtMS != 4500 {
		t.Errorf("passed on %+v and %+v, want expiries 9500, 4500, 4500", next.h, next.m)
	}
	if h.ExpireAtMS != 9000 || h.MinFieldExpireAtMS != 4000 || m.ExpireAtMS != 4000 {
		t.Errorf("the caller's header %+v or member %+v changed", h, m)
	}
	if st := s.Stats(); st != (rebase.Stats{Keys: 1, Fields: 1}) {
		t.Errorf("stats %+v", st)
	}
}
