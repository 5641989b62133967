package output

import (
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// progressEvery is how many keys and members pass between the progress reports of a tally.
const progressEvery = 1 << 16

// A tally is a record.Count, for a sink that does not count (RESP commands), that also
// reports, with a progress, every progressEvery keys and members.
type tally struct {
	record.Count
	meter *meter // the bytes written
	p     *progress
	ticks int
}

// stats returns the counts so far.
func (t *tally) stats() encoder.Stats {
	return encoder.Stats{Keys: t.Counts.Keys, Expires: t.Counts.Expires, Members: t.Members, Bytes: t.meter.n.Load()}
}

// tick counts a key or a member, and every progressEvery of them reports.
func (t *tally) tick() {
	if t.ticks++; t.ticks >= progressEvery {
		t.ticks = 0
		t.p.send()
	}
}

// Begin counts a key.
func (t *tally) Begin(h *record.Header) error {
	t.tick()
	return t.Count.Begin(h)
}

// Add counts a member.
func (t *tally) Add(m *record.Member) error {
	t.tick()
	return t.Count.Add(m)
}
