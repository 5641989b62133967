package inspect

import (
	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
)

// sink counts the records a decoder.Reader writes into it and passes them on to a
// memory.Estimator, made at the first database, once the AUX fields that name the server
// are read. Keys already expired are counted but not passed on: a server (a primary)
// drops them as it loads the file.
type sink struct {
	rd   *decoder.Reader
	opts Options
	est  *memory.Estimator
	now  int64 // opts.Now in Unix ms

	dbs     map[int]*DB
	db      *DB
	types   map[record.Type]*TypeCount
	last    *TypeCount // the type of the last record
	expiry  expirySpread
	bySize  topKeys
	byCount topKeys

	// The open record.
	drop    bool // expired: not passed to est
	key     []byte
	typ     record.Type
	expire  int64
	members uint64
}

func newSink(rd *decoder.Reader, opts Options) *sink {
	return &sink{
		rd: rd, opts: opts, now: opts.Now.UnixMilli(),
		dbs:     map[int]*DB{},
		types:   map[record.Type]*TypeCount{},
		expiry:  newExpirySpread(opts.Now.UnixMilli()),
		bySize:  topKeys{n: opts.Top},
		byCount: topKeys{n: opts.Top},
	}
}

func (s *sink) BeginDB(db int, info encoder.DBInfo) error {
	if s.est == nil {
		est, err := newEstimator(s.rd, s.opts)
		if err != nil {
			return err
		}
		s.est = est
	}
	d := s.dbs[db]
	if d == nil {
		d = &DB{DB: db, ResizeKeys: info.Keys, ResizeExpires: info.Expires}
		s.dbs[db] = d
	}
	s.db = d
	return s.est.BeginDB(db, info)
}

// begin notes the record that opens.
func (s *sink) begin(key []byte, typ record.Type, exp int64, n uint64) {
	s.key = append(s.key[:0], key...)
	s.typ, s.expire, s.members = typ, exp, n
	s.drop = exp != 0 && exp <= s.now
}

// mem returns the sink the open record's members go to: the estimator, or a sink that
// drops them when the record is expired.
func (s *sink) mem() record.Sink {
	if s.drop {
		return record.Discard{} // an expired record's members: kept nowhere
	}
	return s.est
}

// end counts the record that closes, which the reader has read to its end.
func (s *sink) end() {
	size := s.rd.Offset() - s.rd.RecordOffset()
	d := s.db
	d.Keys++
	d.Bytes += size
	if s.expire != 0 {
		d.Expires++
		s.expiry.add(s.expire)
	}
	t := s.last
	if t == nil || t.Type != s.typ { // records mostly come in runs of one type
		if t = s.types[s.typ]; t == nil {
			t = &TypeCount{Type: s.typ}
			s.types[s.typ] = t
		}
		s.last = t
	}
	t.Keys++
	t.Members += s.members
	t.Bytes += size
	if s.opts.Top > 0 {
		k := keyInfo{db: d.DB, key: s.key, typ: s.typ, enc: s.rd.RecordType(), size: size, members: s.members, expire: s.expire}
		s.bySize.add(k, size)
		if s.typ != record.String {
			s.byCount.add(k, int64(s.members))
		}
	}
}

func (s *sink) WriteString(key, value []byte, exp int64) error {
	s.begin(key, record.String, exp, 0)
	if err := s.mem().WriteString(key, value, exp); err != nil {
		return err
	}
	s.end()
	return nil
}

func (s *sink) BeginHash(key []byte, n uint64, exp int64) error {
	s.begin(key, record.Hash, exp, n)
	return s.mem().BeginHash(key, n, exp)
}

func (s *sink) BeginList(key []byte, n uint64, exp int64) error {
	s.begin(key, record.List, exp, n)
	return s.mem().BeginList(key, n, exp)
}

func (s *sink) BeginSet(key []byte, n uint64, exp int64) error {
	s.begin(key, record.Set, exp, n)
	return s.mem().BeginSet(key, n, exp)
}

func (s *sink) BeginZSet(key []byte, n uint64, exp int64) error {
	s.begin(key, record.ZSet, exp, n)
	return s.mem().BeginZSet(key, n, exp)
}

func (s *sink) BeginHashWithFieldTTL(key []byte, n uint64, exp, minField int64) error {
	s.begin(key, record.Hash, exp, n)
	return s.mem().BeginHashWithFieldTTL(key, n, exp, minField)
}

func (s *sink) BeginStream(key []byte, exp int64) error {
	s.begin(key, record.Stream, exp, 0)
	return s.mem().BeginStream(key, exp)
}

func (s *sink) AddField(f, v []byte) error { return s.mem().AddField(f, v) }

func (s *sink) AddFieldWithTTL(f, v []byte, exp int64) error {
	return s.mem().AddFieldWithTTL(f, v, exp)
}

func (s *sink) AddElement(e []byte) error { return s.mem().AddElement(e) }

func (s *sink) AddMember(m []byte) error { return s.mem().AddMember(m) }

func (s *sink) AddScoredMember(m []byte, score float64) error {
	return s.mem().AddScoredMember(m, score)
}

func (s *sink) AddStreamEntry(id record.StreamID, fields [][]byte) error {
	s.members++
	return s.mem().AddStreamEntry(id, fields)
}

func (s *sink) SetStreamMeta(m record.StreamMeta) error { return s.mem().SetStreamMeta(m) }

func (s *sink) AddStreamGroup(g *record.StreamGroup) error { return s.mem().AddStreamGroup(g) }

func (s *sink) EndCollection() error {
	if err := s.mem().EndCollection(); err != nil {
		return err
	}
	s.end()
	return nil
}

// WriteFunction takes a function library: the reader counts them (Reader.Functions).
func (s *sink) WriteFunction([]byte) error { return nil }
