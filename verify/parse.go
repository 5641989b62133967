package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// countSink counts the records the reader passes it per database and type, and looks for
// repeated keys and members (step 1 of dups.go).
type countSink struct {
	rep          *FileReport
	db           int
	c            DBCounts
	records      uint64 // records so far; the index of the open one is records-1
	members      uint64 // members of the open collection so far
	checkMembers bool
	dups         *dupFinder
}

func (s *countSink) BeginDB(db int, info record.Counts) error {
	s.flushDB()
	s.db = db
	s.c = s.rep.DBs[db]
	if s.c.Types == nil {
		s.c.Types = map[string]uint64{}
	}
	s.dups.beginDB(info.Keys)
	return nil
}

func (s *countSink) flushDB() {
	if s.c.Types != nil {
		s.rep.DBs[s.db] = s.c
	}
}

func (s *countSink) record(t record.Type, key []byte, exp int64) {
	s.c.Keys++
	s.c.Types[string(t)]++
	rep := s.rep
	rep.Keys++
	if exp != 0 {
		s.c.Expires++
		if rep.Expires == 0 || exp < rep.MinExpireAtMS {
			rep.MinExpireAtMS = exp
		}
		rep.MaxExpireAtMS = max(rep.MaxExpireAtMS, exp)
		rep.Expires++
		if exp <= rep.CheckedAtMS {
			rep.Expired++
		}
		clock := rep.clocks[s.db]
		if clock == nil {
			clock = &expiryClock{base: rep.CheckedAtMS}
			rep.clocks[s.db] = clock
		}
		clock.add(exp)
	}
	s.dups.key(s.db, key, s.records)
	s.records++
}

// Begin counts a key and starts the check of its members.
func (s *countSink) Begin(h *record.Header) error {
	s.record(h.Type, h.Key, h.ExpireAtMS)
	s.members = 0
	s.checkMembers = !h.Type.Whole() && h.Type != record.List && h.Type != record.Stream
	if s.checkMembers {
		s.dups.beginMembers(h.Key, h.Len)
	}
	return nil
}

// Add checks a member of a set, hash or sorted set for a repeat.
func (s *countSink) Add(m *record.Member) error {
	if s.checkMembers {
		s.dups.member(s.db, m.Name, s.records-1, s.members)
	}
	s.members++
	return nil
}

// End ends the member check of the key.
func (s *countSink) End(*record.StreamTail) error {
	s.dups.flushMembers()
	return nil
}

// parsed is what parseFile found: a problem that stopped it, or the reader and counts of a
// file it read whole.
type parsed struct {
	problem *Mismatch
	rd      *decoder.Reader
	sink    *countSink
	// end is the offset after the file's EOF marker and checksum, checksum the trailer the
	// decoder checked (0 for none).
	end      int64
	checksum uint64
}

// parseFile reads every record of the file with the decoder, counts the keys per database,
// type and encoding, and the expiries, and notes the candidates of repeated keys and
// members. Its error means the file could not be read at all.
func parseFile(ctx context.Context, f *os.File, size int64, rep *FileReport, opts Options) (parsed, error) {
	problem := func(what, got string) (parsed, error) {
		return parsed{problem: &Mismatch{Stage: StageFile, What: what, Got: got}}, nil
	}
	rd, err := decoder.NewReader(io.NewSectionReader(f, 0, size), decoder.Options{
		BufferSize: readChunk,
		// A valid file of Redis 8.6+ passes: what no record holds is read past, counted.
		DropNewer: true,
		Progress: func(p record.Progress) {
			opts.progress(record.Progress{Stage: string(StageFile), Bytes: p.Bytes, TotalBytes: size})
		},
	})
	if err != nil {
		return problem("header", err.Error())
	}
	rep.CheckedAtMS = time.Now().UnixMilli()
	rep.clocks = map[int]*expiryClock{}
	sink := &countSink{rep: rep, dups: newDupFinder()}
	err = rd.WriteTo(ctx, sink)
	sink.flushDB()
	sink.dups.flush()
	rep.Aux = rd.Aux()
	st := rd.Stats()
	rep.Encodings = st.Types
	rep.Modules, rep.ModuleAux = st.Modules, st.ModuleAux
	rep.Newer = st.NewerDropped
	if cerr := ctx.Err(); cerr != nil {
		return parsed{}, cerr
	}
	var de *decoder.Error
	switch {
	case errors.Is(err, decoder.ErrTruncated):
		return problem("truncated", fmt.Sprintf("the file ends inside a record, at byte %d", size))
	case errors.As(err, &de):
		return problem("structure", err.Error())
	case err != nil:
		return parsed{}, fmt.Errorf("read %s: %w", rep.Path, err)
	}
	rep.Parsed = true
	return parsed{rd: rd, sink: sink, end: st.Bytes, checksum: st.Checksum}, nil
}

// finish compares the counts of a file read whole with its RESIZEDB hints when exact is set,
// and confirms its candidate repeats.
func (p parsed) finish(ctx context.Context, f *os.File, size int64, rep *FileReport, exact bool, fail func(what, got, want string)) error {
	// RESIZEDB counts are hints, which Redis uses to size its tables and never checks: a
	// dump whose hints are off loads as well (and convert carries them as they are). Only
	// the files rdbgen generates promise exact ones.
	for db, h := range p.rd.ResizeHints() {
		if !exact {
			break
		}
		c := rep.DBs[db]
		if h.Keys != c.Keys || h.Expires != c.Expires {
			fail(fmt.Sprintf("keys in db %d", db), fmt.Sprintf("%d (%d with TTL)", c.Keys, c.Expires),
				fmt.Sprintf("%d (%d with TTL), as its RESIZEDB says", h.Keys, h.Expires))
		}
	}
	if cands := p.sink.dups.candidates; len(cands) > 0 {
		return confirmDups(ctx, f, size, cands, fail)
	}
	return nil
}

// WriteFunction takes a function library, which holds no keys: the reader counts them.
func (s *countSink) WriteFunction([]byte) error { return nil }

// WriteModuleAux takes a module's AUX data, which holds no keys: the reader counts them
// (FileReport.ModuleAux).
func (s *countSink) WriteModuleAux(*record.ModuleAux) error { return nil }
