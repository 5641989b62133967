package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// errDupsDone stops the second read once it is past the last candidate.
var errDupsDone = errors.New("past the last candidate")

type dbKey struct {
	db  int
	key string
}

// confirmSink runs step 2 of the duplicate check (see dups.go): it compares each candidate
// with the keys and members before it. Function libraries hold no keys: it drops them.
type confirmSink struct {
	record.Discard
	db       int
	records  uint64
	last     uint64                       // the last candidate's record
	keys     map[dbKey]uint64             // candidate key -> the first record where it matched
	members  map[uint64]map[string]uint64 // record -> candidate member -> first index where it matched
	open     map[string]uint64            // the candidates of the open collection
	idx      uint64
	found    map[dbKey]bool
	foundMem map[string]bool
	cands    map[uint64]dupCandidate // record -> a candidate, for its key in messages
	fail     func(what, got, want string)
}

// BeginDB notes the database of the keys that follow.
func (s *confirmSink) BeginDB(db int, _ record.Counts) error { s.db = db; return nil }

func (s *confirmSink) record(key []byte) error {
	if s.records > s.last {
		return errDupsDone
	}
	k := dbKey{s.db, string(key)}
	if first, ok := s.keys[k]; ok && s.records < first && !s.found[k] {
		s.found[k] = true
		s.fail("duplicate key", fmt.Sprintf("%q is in db %d twice (Redis refuses to load the file)", key, s.db), "")
	}
	s.open = s.members[s.records]
	s.idx = 0
	s.records++
	return nil
}

func (s *confirmSink) member(m []byte) error {
	if s.open != nil {
		if first, ok := s.open[string(m)]; ok && s.idx < first {
			c := s.cands[s.records-1]
			id := fmt.Sprintf("%d\x00%s\x00%s", s.db, c.key, m)
			if !s.foundMem[id] {
				s.foundMem[id] = true
				s.fail("duplicate member", fmt.Sprintf("%q is in key %q (db %d) twice (Redis refuses to load the file)", m, c.key, s.db), "")
			}
		}
	}
	s.idx++
	return nil
}

// Begin compares a key with the keys before it.
func (s *confirmSink) Begin(h *record.Header) error { return s.record(h.Key) }

// Add compares a member with the members before it when its key has candidates (a list or
// stream has none).
func (s *confirmSink) Add(m *record.Member) error { return s.member(m.Name) }

// confirmDups reads the file again up to the last candidate and reports each candidate that
// is a real repeat.
func confirmDups(ctx context.Context, f *os.File, size int64, cands []dupCandidate, fail func(what, got, want string)) error {
	s := &confirmSink{
		keys: map[dbKey]uint64{}, members: map[uint64]map[string]uint64{}, cands: map[uint64]dupCandidate{},
		found: map[dbKey]bool{}, foundMem: map[string]bool{}, fail: fail,
	}
	for _, c := range cands {
		s.last = max(s.last, c.record)
		if !c.isMem {
			k := dbKey{c.db, c.key}
			if first, ok := s.keys[k]; !ok || c.record < first {
				s.keys[k] = c.record
			}
			continue
		}
		m := s.members[c.record]
		if m == nil {
			m = map[string]uint64{}
			s.members[c.record] = m
			s.cands[c.record] = c
		}
		if first, ok := m[c.member]; !ok || c.index < first {
			m[c.member] = c.index
		}
	}
	rd, err := decoder.NewReader(io.NewSectionReader(f, 0, size), decoder.Options{BufferSize: readChunk})
	if err != nil {
		return err
	}
	if err := rd.WriteTo(ctx, s); err != nil && !errors.Is(err, errDupsDone) {
		return err
	}
	return nil
}
