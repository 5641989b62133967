package output

import (
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// progressEvery is how many keys and members pass between the progress reports of a tally.
const progressEvery = 1 << 16

// A tally passes the records on to Next and counts the keys, expiring keys and members,
// per database, as an encoder's Stats and DBs count them, for a sink that does not count
// (RESP commands); with a progress, it reports every progressEvery keys and members.
type tally struct {
	record.Pass
	meter   *meter // the bytes written
	p       *progress
	ticks   int
	keys    uint64
	expires uint64
	members uint64
	db      int
	dbs     map[int]record.Counts
}

// stats returns the counts so far.
func (t *tally) stats() encoder.Stats {
	return encoder.Stats{Keys: t.keys, Expires: t.expires, Members: t.members, Bytes: t.meter.n.Load()}
}

// tick counts a key or a member, and every progressEvery of them reports.
func (t *tally) tick() {
	if t.ticks++; t.ticks >= progressEvery {
		t.ticks = 0
		t.p.send()
	}
}

// BeginDB opens database db.
func (t *tally) BeginDB(db int, c record.Counts) error {
	t.db = db
	return t.Next.BeginDB(db, c)
}

// Begin counts a key of the open database.
func (t *tally) Begin(h *record.Header) error {
	t.tick()
	if t.dbs == nil {
		t.dbs = map[int]record.Counts{}
	}
	c := t.dbs[t.db]
	c.Keys++
	t.keys++
	if h.ExpireAtMS > 0 {
		c.Expires++
		t.expires++
	}
	t.dbs[t.db] = c
	return t.Next.Begin(h)
}

// Add counts a member.
func (t *tally) Add(m *record.Member) error {
	t.tick()
	t.members++
	return t.Next.Add(m)
}
