package decoder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/rdbgen/rdbgen/record"
)

// Repeated members of a large collection. Past loggedMembers members held in the
// memberSet's hashSet, the hashes of a collection's members go to a hashLog (moved there,
// then each further one), so that memory stays a few MiB whatever the collection's size
// (the log spills to a temporary file in $TMPDIR, 8 bytes a member). At the collection's
// end, before the sink gets End, the log is checked for a hash that comes twice:
// from a source that can be read at an offset (a file), the collection is read again and
// the members whose hash repeats are compared as bytes, so that the error names the member
// and two distinct members sharing a hash are no error; from a source read once, a
// repeated hash is the error (two distinct members share one with odds of n²/2⁶⁵ among n).

// loggedMembers is the number of members of a collection held in a hashSet (256 KiB of
// table) before their hashes go to a hashLog (1<<14: a file of sets of 200,000 members
// converts in 0.23 s and 35 MB against 0.29 s and 41 MB with 1<<16, whose larger tables
// leave more garbage). A variable so that tests can make it small.
var loggedMembers = 1 << 14

// startLog moves the hashes of the set to a new hashLog, which takes every further one.
func (m *memberSet) startLog() {
	m.log, m.spare = newHashLog("members", m.spare), nil
	for _, h := range m.set.tab {
		if h != 0 {
			m.log.add(h&keyMask | 1)
		}
	}
	m.set.reset()
}

// closeLog ends the log, if any, and removes its file; its buffers are kept for the next.
func (m *memberSet) closeLog() {
	if m.log != nil {
		m.log.close()
		m.log, m.spare = nil, m.log
	}
}

// endCollection checks the members of the open collection of plain type t when their
// hashes were logged, and ends the collection in sink.
func (rd *Reader) endCollection(t byte, sink record.Sink) error {
	if rd.members.log != nil {
		if err := rd.endMembers(t); err != nil {
			return err
		}
	}
	return s(sink.End(nil))
}

// endMembers checks the hash log of the open collection of plain type t for a member that
// comes twice, and closes it.
func (rd *Reader) endMembers(t byte) error {
	rep, err := rd.members.log.repeated(rd.ctx)
	rd.members.closeLog()
	if err != nil {
		if cerr := rd.ctx.Err(); cerr != nil {
			return s(cerr)
		}
		return err
	}
	if len(rep) == 0 {
		return nil
	}
	if rd.ra != nil {
		return rd.confirmMembers(t, rep)
	}
	what := "member"
	if t == 4 {
		what = "field"
	}
	h := ^uint64(0)
	for r := range rep {
		h = min(h, r)
	}
	return fmt.Errorf("%w: two %ss share the 64-bit hash %#016x (the input cannot be read again to compare them; two distinct ones share one with odds of n²/2⁶⁵ among n): Redis refuses a %s held twice; repair the source",
		record.ErrDuplicateMember, what, h, what)
}

// errFound stops the reading of confirmMembers at the first member read twice.
var errFound = errors.New("member found again")

// confirmMembers reads the collection of plain type t at rd.recStart again and compares
// the members whose hash is in rep as bytes: a member read twice is the error.
func (rd *Reader) confirmMembers(t byte, rep map[uint64]struct{}) error {
	opts := rd.opts
	opts.OnDuplicate, opts.Progress = "", nil
	again := &Reader{in: newInput(io.NewSectionReader(rd.ra, rd.recStart, math.MaxInt64-rd.recStart), 256<<10),
		opts: opts, version: rd.version, ctx: rd.ctx}
	sink := &memberSink{seed: &rd.seed, rep: rep, seen: map[string]struct{}{}}
	rt, err := again.in.byte()
	if err == nil {
		again.key, err = again.in.str(again.key, &again.lzf)
	}
	if err == nil {
		err = again.readValue(rt, 0, sink)
	}
	switch {
	case sink.found != nil:
		return memberError(t, sink.found)
	case err == nil:
		return nil
	case rd.ctx.Err() != nil:
		return s(rd.ctx.Err())
	}
	var se sinkErr
	if errors.As(err, &se) {
		err = se.err
	}
	return fmt.Errorf("read the collection again to compare its members: %w", err)
}

// memberSink notes the members whose hash is in rep, and stops at the first it gets twice.
type memberSink struct {
	record.Discard
	seed  *hashSeed
	rep   map[uint64]struct{}
	seen  map[string]struct{}
	found []byte
}

func (s *memberSink) member(m []byte) error {
	if _, ok := s.rep[memberHash(s.seed, m)&keyMask|1]; !ok {
		return nil
	}
	if _, ok := s.seen[string(m)]; ok {
		s.found = bytes.Clone(m)
		return errFound
	}
	s.seen[string(m)] = struct{}{}
	return nil
}

// Add notes a set or sorted-set member or a hash field (lists are not checked).
func (s *memberSink) Add(m *record.Member) error { return s.member(m.Name) }
