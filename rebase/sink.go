package rebase

import (
	"errors"

	"github.com/rdbgen/rdbgen/record"
)

// Stats count what a Sink moved.
type Stats struct {
	Keys   uint64 // keys whose expiry was moved
	Fields uint64 // hash fields whose expiry was moved
}

// A Sink is a record.Sink that moves every expiry it receives by a Shift and passes the
// records on to the next Sink, unchanged otherwise. It is not safe for concurrent use.
type Sink struct {
	record.Pass
	shift Shift
	stats Stats
	h     record.Header // the header passed on, its expiries moved
	m     record.Member // the field passed on, its expiry moved
}

// New returns a Sink that moves expiries by shift and writes the records to next.
func New(next record.Sink, shift Shift) (*Sink, error) {
	if next == nil {
		return nil, errors.New("rebase: nil next sink")
	}
	return &Sink{Pass: record.Pass{Next: next}, shift: shift}, nil
}

// Through returns src with its expiries moved by shift.
func Through(src record.Source, shift Shift) record.Source {
	return record.Through(src, func(next record.Sink) (record.Sink, error) { return New(next, shift) })
}

// Stats returns the counts so far.
func (s *Sink) Stats() Stats { return s.stats }

// Begin passes a key on with its expiry, and its fields' smallest, moved. Stream ids are
// left as they are.
func (s *Sink) Begin(h *record.Header) error {
	if h.ExpireAtMS == 0 && h.MinFieldExpireAtMS == 0 {
		return s.Next.Begin(h)
	}
	if h.ExpireAtMS != 0 {
		s.stats.Keys++
	}
	s.h = *h
	s.h.ExpireAtMS = s.shift.Apply(h.ExpireAtMS)
	s.h.MinFieldExpireAtMS = s.shift.Apply(h.MinFieldExpireAtMS)
	return s.Next.Begin(&s.h)
}

// Add passes a member on, a hash field with its expiry moved.
func (s *Sink) Add(m *record.Member) error {
	if m.ExpireAtMS == 0 {
		return s.Next.Add(m)
	}
	s.stats.Fields++
	s.m = *m
	s.m.ExpireAtMS = s.shift.Apply(m.ExpireAtMS)
	return s.Next.Add(&s.m)
}

var _ record.Sink = (*Sink)(nil)
