package inspect

import (
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/rdb/decoder"
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
	pre     *prefixes   // nil unless Options.Prefixes
	feed    *prefixFeed // into pre

	// The open record.
	drop    bool // expired: not passed to est
	whole   bool // a string or module value: no members
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
		pre:     prefixesFor(opts.Prefixes),
	}
}

// prefixesFor returns the counts o asks for, nil for none (no options, or a negative Top).
func prefixesFor(o *PrefixOptions) *prefixes {
	if o == nil || o.Top < 0 {
		return nil
	}
	return newPrefixes(*o)
}

func (s *sink) BeginDB(db int, info record.Counts) error {
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

// Begin notes the key that opens and passes it on; a string or module value is counted at
// once, its name read in place rather than kept.
func (s *sink) Begin(h *record.Header) error {
	s.typ, s.expire, s.members = h.Type, h.ExpireAtMS, h.Len
	s.drop = h.ExpireAtMS != 0 && h.ExpireAtMS <= s.now
	if s.whole = h.Type.Whole(); !s.whole {
		s.key = append(s.key[:0], h.Key...)
		return s.mem().Begin(h)
	}
	if !s.drop {
		if err := s.est.Begin(h); err != nil {
			return err
		}
	}
	s.end(h.Key)
	return nil
}

// Add passes a member on, counting a stream's entries (whose number no header gives).
func (s *sink) Add(m *record.Member) error {
	if s.typ == record.Stream {
		s.members++
	}
	return s.mem().Add(m)
}

// End passes the end of a collection or stream on and counts it.
func (s *sink) End(t *record.StreamTail) error {
	if err := s.mem().End(t); err != nil {
		return err
	}
	s.end(s.key)
	return nil
}

// mem returns the sink the open record's members go to: the estimator, or a sink that
// drops them when the record is expired.
func (s *sink) mem() record.Sink {
	if s.drop {
		return record.Discard{} // an expired record's members: kept nowhere
	}
	return s.est
}

// end counts the record of name key that closes, which the reader has read to its end.
func (s *sink) end(key []byte) {
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
	if s.pre != nil {
		var mem int64
		if !s.drop {
			mem = s.est.KeyBytes()
		}
		s.feed.add(key, size, mem)
	}
	if s.opts.Top > 0 {
		bySize := s.bySize.admits(d.DB, key, size)
		byCount := !s.whole && s.byCount.admits(d.DB, key, int64(s.members))
		if bySize || byCount {
			k := keyInfo{db: d.DB, key: key, typ: s.typ, enc: s.rd.RecordTypeName(), size: size, members: s.members, expire: s.expire}
			if bySize {
				s.bySize.add(k, size)
			}
			if byCount {
				s.byCount.add(k, int64(s.members))
			}
		}
	}
}

// WriteFunction takes a function library: the reader counts them (Reader.Functions).
func (s *sink) WriteFunction([]byte) error { return nil }

// WriteModuleAux takes a module's AUX data: the reader counts them (Stats.ModuleAux).
func (s *sink) WriteModuleAux(*record.ModuleAux) error { return nil }
