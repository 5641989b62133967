package decoder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"

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

// hashSet holds 64-bit hashes in an open-addressing table that grows with what is added
// (never with a count the file claims): the members of the open collection, whose repeats
// are taken by their hash (two distinct members share one with odds of n²/2⁶⁵ among n), and
// the keys of the file under record.DupError, whose matches are confirmed (see keep).
type hashSet struct {
	tab []uint64 // 0 is an empty slot
	n   int
}

// reset empties the set; a large table is not kept.
func (m *hashSet) reset() {
	if len(m.tab) != 16 {
		m.tab = make([]uint64, 16)
	} else if m.n > 0 {
		clear(m.tab)
	}
	m.n = 0
}

// add adds h and reports whether it was there already.
func (m *hashSet) add(h uint64) bool {
	if m.insert(h | 1) {
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

// insert puts h (not 0) in the table unless it is there, and reports whether it was.
func (m *hashSet) insert(h uint64) bool { return m.probe(h, true) }

// has reports whether h is in the set.
func (m *hashSet) has(h uint64) bool { return m.probe(h|1, false) }

// probe looks h up from its slot on, and puts it in the first empty slot when insert is set.
func (m *hashSet) probe(h uint64, insert bool) bool {
	mask := uint64(len(m.tab) - 1)
	for i := (h >> 1) & mask; ; i = (i + 1) & mask {
		switch m.tab[i] {
		case h:
			return true
		case 0:
			if insert {
				m.tab[i] = h
			}
			return false
		}
	}
}

// keyHash is the hash of db's key rd.key.
func (rd *Reader) keyHash(db int) uint64 {
	return maphash.Bytes(rd.seed, rd.key) ^ uint64(db)*0x9e3779b97f4a7c15
}

// checkMember fails when member was read before in the open collection of type t (a plain
// type: 2 set, 3 or 5 zset, 4 hash); lists may repeat.
func (rd *Reader) checkMember(t byte, member []byte) error {
	if rd.opts.OnDuplicate == "" || t == 1 || !rd.members.add(maphash.Bytes(rd.seed, member)) {
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
// (see seen): an empty collection, which Redis skips, is no first record. Under DupFirst
// and DupLast keys are kept exactly (record.KeySet); under DupError, the default of every
// command, as 64-bit hashes in 8 bytes a slot, and a match is confirmed by reading the file
// again up to the record (a source that cannot be read again takes the match as a repeat).
func (rd *Reader) keep(db int) (bool, error) {
	switch rd.opts.OnDuplicate {
	case "":
		return true, nil
	case record.DupLast: // a key the first reading did not note (empty, skipped) is read as it comes
		last, ok := rd.last.Get(db, rd.key)
		return !ok || last == rd.recStart, nil
	case record.DupFirst:
		_, dup := rd.keys.Get(db, rd.key)
		return !dup, nil
	}
	// From a file, the hash is added now, in one probe of the table: a record that turns out
	// empty leaves its hash, and a later record of its key reads the file again to find no
	// first record. From a source read once, only once the record was passed on (seen).
	if h := rd.keyHash(db); (rd.ra != nil && !rd.keyHashes.add(h)) || (rd.ra == nil && !rd.keyHashes.has(h)) {
		return true, nil
	}
	where := "its 64-bit hash matches an earlier key's; the input cannot be read again to compare"
	if rd.ra != nil {
		first, err := rd.firstRecord(db)
		if err != nil || first < 0 {
			return true, err
		}
		where = fmt.Sprintf("its first record at byte %d", first)
	}
	return false, fmt.Errorf("%w in db %d (%s): keep the first with --on-duplicate first, or the last with --on-duplicate last",
		ErrDuplicateKey, db, where)
}

// seen remembers the key of the record just passed on.
func (rd *Reader) seen(db int) {
	switch {
	case rd.keys != nil:
		rd.keys.Put(db, rd.key, rd.recStart)
	case rd.opts.OnDuplicate == record.DupError && rd.ra == nil:
		rd.keyHashes.add(rd.keyHash(db))
	}
}

// firstRecord reads the file again up to the record being read and returns the offset of
// the first record passed on of db's key rd.key, or -1 when there is none.
func (rd *Reader) firstRecord(db int) (int64, error) {
	opts := rd.opts
	opts.OnDuplicate, opts.Progress, opts.BufferSize = "", nil, 64<<10
	again, err := NewReader(io.NewSectionReader(rd.ra, 0, rd.recStart), opts)
	if err != nil {
		return -1, err
	}
	found := int64(-1)
	err = again.WriteTo(rd.ctx, &keySink{fn: func(d int, key []byte) error {
		if d == db && bytes.Equal(key, rd.key) {
			found = again.recStart
			return errFound
		}
		return nil
	}})
	switch {
	case found >= 0:
		return found, nil
	case errors.Is(err, ErrTruncated): // the section ends where the record being read starts
		return -1, nil
	case err == nil:
		err = errors.New("the file read again ends early")
	}
	return -1, fmt.Errorf("read the file again to compare keys: %w", err)
}

// lastRecords reads the file at path once, with opts, and returns the offset of the last
// record of every key, for a second reading under record.DupLast.
func lastRecords(ctx context.Context, f File) (*record.KeySet, error) {
	opts := f.Options
	opts.OnDuplicate, opts.Progress = "", nil
	last := record.NewKeySet()
	var rd *Reader
	err := f.read(ctx, opts, func(r *Reader) { rd = r }, &keySink{fn: func(db int, key []byte) error {
		last.Put(db, key, rd.recStart)
		return nil
	}})
	return last, err
}

// errFound stops the reading again at the record looked for.
var errFound = errors.New("found")

// keySink calls fn with the db and key of each record it gets, and drops the rest.
type keySink struct {
	record.Discard
	db int
	fn func(db int, key []byte) error
}

func (s *keySink) BeginDB(db int, _ encoder.DBInfo) error        { s.db = db; return nil }
func (s *keySink) WriteString(key, _ []byte, _ int64) error      { return s.fn(s.db, key) }
func (s *keySink) BeginHash(key []byte, _ uint64, _ int64) error { return s.fn(s.db, key) }
func (s *keySink) BeginList(key []byte, _ uint64, _ int64) error { return s.fn(s.db, key) }
func (s *keySink) BeginSet(key []byte, _ uint64, _ int64) error  { return s.fn(s.db, key) }
func (s *keySink) BeginZSet(key []byte, _ uint64, _ int64) error { return s.fn(s.db, key) }
func (s *keySink) BeginHashWithFieldTTL(key []byte, _ uint64, _, _ int64) error {
	return s.fn(s.db, key)
}
func (s *keySink) BeginStream(key []byte, _ int64) error { return s.fn(s.db, key) }
