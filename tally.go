package rdbgen

import (
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A tally is a record.Count that also counts the keys, and keys with an expiry, of each
// database, as an encoder's DBs counts them: a database that gets no key has no entry, and
// the map is nil until one gets a key.
type tally struct {
	record.Count
	bytes func() int64 // the bytes written so far, for stats; nil for none
	db    int
	base  record.Counts // Counts when the open database began
	dbs   map[int]record.Counts
}

// newTally returns a tally of the records that pass on to next.
func newTally(next record.Sink, bytes func() int64) *tally {
	return &tally{Count: record.Count{Next: next}, bytes: bytes}
}

// BeginDB counts the database that ends and passes the call on.
func (t *tally) BeginDB(db int, c record.Counts) error {
	t.endDB()
	t.db = db
	return t.Count.BeginDB(db, c)
}

// endDB adds the keys counted since the open database began to its counts.
func (t *tally) endDB() {
	d := record.Counts{Keys: t.Counts.Keys - t.base.Keys, Expires: t.Counts.Expires - t.base.Expires}
	if d.Keys == 0 {
		return
	}
	if t.dbs == nil {
		t.dbs = map[int]record.Counts{}
	}
	c := t.dbs[t.db]
	c.Add(d)
	t.dbs[t.db] = c
	t.base = t.Counts
}

// DBs returns the counts of each database that got keys.
func (t *tally) DBs() map[int]record.Counts {
	t.endDB()
	return t.dbs
}

// stats returns the counts so far as an encoder's Stats.
func (t *tally) stats() encoder.Stats {
	s := encoder.Stats{Keys: t.Counts.Keys, Expires: t.Counts.Expires, Members: t.Members}
	if t.bytes != nil {
		s.Bytes = t.bytes()
	}
	return s
}
