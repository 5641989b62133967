package rebase

import (
	"errors"

	"github.com/rdbgen/rdbgen/encoder"
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
	next  record.Sink
	shift Shift
	stats Stats
}

// New returns a Sink that moves expiries by shift and writes the records to next.
func New(next record.Sink, shift Shift) (*Sink, error) {
	if next == nil {
		return nil, errors.New("rebase: nil next sink")
	}
	return &Sink{next: next, shift: shift}, nil
}

// Through returns src with its expiries moved by shift.
func Through(src record.Source, shift Shift) record.Source {
	return record.Through(src, func(next record.Sink) (record.Sink, error) { return New(next, shift) })
}

// Stats returns the counts so far.
func (s *Sink) Stats() Stats { return s.stats }

func (s *Sink) key(exp int64) int64 {
	if exp != 0 {
		s.stats.Keys++
	}
	return s.shift.Apply(exp)
}

// BeginDB passes the database on.
func (s *Sink) BeginDB(db int, info encoder.DBInfo) error { return s.next.BeginDB(db, info) }

// WriteString passes a string on with its expiry moved.
func (s *Sink) WriteString(key, value []byte, exp int64) error {
	return s.next.WriteString(key, value, s.key(exp))
}

// BeginHash opens a hash with its expiry moved.
func (s *Sink) BeginHash(key []byte, n uint64, exp int64) error {
	return s.next.BeginHash(key, n, s.key(exp))
}

// BeginList opens a list with its expiry moved.
func (s *Sink) BeginList(key []byte, n uint64, exp int64) error {
	return s.next.BeginList(key, n, s.key(exp))
}

// BeginSet opens a set with its expiry moved.
func (s *Sink) BeginSet(key []byte, n uint64, exp int64) error {
	return s.next.BeginSet(key, n, s.key(exp))
}

// BeginZSet opens a sorted set with its expiry moved.
func (s *Sink) BeginZSet(key []byte, n uint64, exp int64) error {
	return s.next.BeginZSet(key, n, s.key(exp))
}

// AddField passes a hash field on.
func (s *Sink) AddField(field, value []byte) error { return s.next.AddField(field, value) }

// AddElement passes a list element on.
func (s *Sink) AddElement(element []byte) error { return s.next.AddElement(element) }

// AddMember passes a set member on.
func (s *Sink) AddMember(member []byte) error { return s.next.AddMember(member) }

// AddScoredMember passes a sorted-set member on.
func (s *Sink) AddScoredMember(member []byte, score float64) error {
	return s.next.AddScoredMember(member, score)
}

// BeginHashWithFieldTTL opens a hash whose fields expire, its expiry and its fields' smallest
// moved.
func (s *Sink) BeginHashWithFieldTTL(key []byte, n uint64, exp, minFieldExp int64) error {
	return s.next.BeginHashWithFieldTTL(key, n, s.key(exp), s.shift.Apply(minFieldExp))
}

// AddFieldWithTTL passes a field on with its expiry moved.
func (s *Sink) AddFieldWithTTL(field, value []byte, exp int64) error {
	if exp != 0 {
		s.stats.Fields++
	}
	return s.next.AddFieldWithTTL(field, value, s.shift.Apply(exp))
}

// BeginStream opens a stream with its expiry moved. Stream ids are left as they are.
func (s *Sink) BeginStream(key []byte, exp int64) error {
	return s.next.BeginStream(key, s.key(exp))
}

// AddStreamEntry passes a stream entry on.
func (s *Sink) AddStreamEntry(id record.StreamID, fields [][]byte) error {
	return s.next.AddStreamEntry(id, fields)
}

// SetStreamMeta passes a stream's metadata on.
func (s *Sink) SetStreamMeta(meta record.StreamMeta) error { return s.next.SetStreamMeta(meta) }

// AddStreamGroup passes a consumer group on.
func (s *Sink) AddStreamGroup(g *record.StreamGroup) error { return s.next.AddStreamGroup(g) }

// EndCollection closes the open collection.
func (s *Sink) EndCollection() error { return s.next.EndCollection() }

var _ record.Sink = (*Sink)(nil)

// WriteFunction passes a function library on: it has no expiry.
func (s *Sink) WriteFunction(code []byte) error { return record.WriteFunction(s.next, code) }
