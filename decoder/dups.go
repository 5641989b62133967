package decoder

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// Repeats. Redis aborts loading a file that holds a key twice in one database, and refuses a
// set, hash or sorted set that holds a member twice (7.2 loads such a set and holds the
// member twice). With Options.OnDuplicate the reader applies the rules of rdbgen's importer:
// a repeated key is an error, or the first or last record of it is kept; a repeated member
// is always an error naming the key and the member.

// Errors of repeats, for errors.Is.
var (
	ErrDuplicateKey    = errors.New("duplicate key")
	ErrDuplicateMember = errors.New("member repeated")
)

// memberSet holds the 64-bit hashes of the members of the open collection, in an
// open-addressing table that grows with the members read (never with a count the file
// claims). Two distinct members share a hash with odds of n²/2⁶⁵ among n members: a match is
// taken as a repeat.
type memberSet struct {
	seed maphash.Seed
	tab  []uint64 // 0 is an empty slot
	n    int
}

// reset empties the set for the next collection; a large table is not kept.
func (m *memberSet) reset() {
	if m.tab == nil {
		m.seed = maphash.MakeSeed()
	}
	if len(m.tab) != 16 {
		m.tab = make([]uint64, 16)
	} else if m.n > 0 {
		clear(m.tab)
	}
	m.n = 0
}

// add adds b and reports whether it was there already.
func (m *memberSet) add(b []byte) bool {
	h := maphash.Bytes(m.seed, b) | 1
	if m.insert(h) {
		return true
	}
	m.n++
	if m.n*4 > len(m.tab)*3 {
		old := m.tab
		m.tab = make([]uint64, 2*len(old))
		for _, v := range old {
			if v != 0 {
				m.insert(v)
			}
		}
	}
	return false
}

// insert puts h in the table unless it is there, and reports whether it was.
func (m *memberSet) insert(h uint64) bool {
	mask := uint64(len(m.tab) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch m.tab[i] {
		case h:
			return true
		case 0:
			m.tab[i] = h
			return false
		}
	}
}

// checkMember fails when member was read before in the open collection of type t (a plain
// type: 2 set, 3 or 5 zset, 4 hash); lists may repeat.
func (rd *Reader) checkMember(t byte, member []byte) error {
	if rd.opts.OnDuplicate == "" || t == 1 || !rd.members.add(member) {
		return nil
	}
	what := "member"
	if t == 4 {
		what = "field"
	}
	return fmt.Errorf("%w: %s %q: Redis refuses the file (7.2 loads it and holds the %s twice); repair the source",
		ErrDuplicateMember, what, member, what)
}

// keep decides, the key of the record at rd.recStart in db read, whether the record is
// passed on under Options.OnDuplicate. A key is remembered once its record was passed on
// (see seen): an empty collection, which Redis skips, is no first record.
func (rd *Reader) keep(db int) (bool, error) {
	switch rd.opts.OnDuplicate {
	case "":
		return true, nil
	case record.DupLast: // a key the first reading did not note (empty, skipped) is read as it comes
		last, ok := rd.last.Get(db, rd.key)
		return !ok || last == rd.recStart, nil
	}
	first, dup := rd.keys.Get(db, rd.key)
	switch {
	case !dup:
		return true, nil
	case rd.opts.OnDuplicate == record.DupFirst:
		return false, nil
	}
	return false, fmt.Errorf("%w in db %d (its first record at byte %d): keep the first with --on-duplicate first, or the last with --on-duplicate last",
		ErrDuplicateKey, db, first)
}

// seen remembers the key of the record just passed on.
func (rd *Reader) seen(db int) {
	if rd.keys != nil {
		rd.keys.Put(db, rd.key, rd.recStart)
	}
}

// lastRecords reads the file at path once, with opts, and returns the offset of the last
// record of every key, for a second reading under record.DupLast.
func lastRecords(ctx context.Context, f File) (*record.KeySet, error) {
	opts := f.Options
	opts.OnDuplicate, opts.Progress = "", nil
	last := record.NewKeySet()
	ls := &lastSink{last: last}
	var rd *Reader
	ls.at = func() int64 { return rd.recStart }
	err := f.read(ctx, opts, func(r *Reader) { rd = r }, ls)
	return last, err
}

// lastSink notes the place of the records it gets, by key.
type lastSink struct {
	record.Discard
	last *record.KeySet
	db   int
	at   func() int64
}

func (s *lastSink) BeginDB(db int, _ encoder.DBInfo) error { s.db = db; return nil }
func (s *lastSink) note(key []byte) error                  { s.last.Put(s.db, key, s.at()); return nil }
func (s *lastSink) WriteString(key, _ []byte, _ int64) error {
	return s.note(key)
}
func (s *lastSink) BeginHash(key []byte, _ uint64, _ int64) error { return s.note(key) }
func (s *lastSink) BeginList(key []byte, _ uint64, _ int64) error { return s.note(key) }
func (s *lastSink) BeginSet(key []byte, _ uint64, _ int64) error  { return s.note(key) }
func (s *lastSink) BeginZSet(key []byte, _ uint64, _ int64) error { return s.note(key) }
func (s *lastSink) BeginHashWithFieldTTL(key []byte, _ uint64, _, _ int64) error {
	return s.note(key)
}
func (s *lastSink) BeginStream(key []byte, _ int64) error { return s.note(key) }
