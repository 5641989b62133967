package live

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/rdbgen/rdbgen/record"
)

// A library is a function library a primary holds: its code, and the primary that first
// gave it.
type library struct {
	code []byte
	from Address
}

// joined passes the records of every primary on into one sink, one key at a time whole:
// database 0 opened once, each library once, a key that two primaries hold by the rule of
// on (see ClusterSource.OnDuplicate).
type joined struct {
	mu        sync.Mutex // held from a key's Begin to its End
	next      record.Sink
	open      int // the database open in next, -1 before the first
	primaries []Address
	libs      map[string]library // by name, every library written
	held      []map[string]bool  // per primary, the libraries it holds
	on        record.OnDuplicate
	keys      *record.KeySet       // db and key → the primary whose copy is kept (DupFirst, DupLast: see keyLister), or that gave it
	owner     func(key []byte) int // the primary that owns the key's slot
	fresh     *record.KeySet       // DupFirst, DupLast: keys not listed, → the primary first read
	dropped   uint64               // the copies left out under DupFirst and DupLast
}

func newJoined(next record.Sink, primaries []Address, on record.OnDuplicate, keys *record.KeySet, owner func(key []byte) int) *joined {
	j := &joined{next: next, open: -1, primaries: primaries, libs: map[string]library{}, on: on, keys: keys, owner: owner}
	for range primaries {
		j.held = append(j.held, map[string]bool{})
	}
	return j
}

// lacking returns the error of a library that not every primary holds.
func (j *joined) lacking() error {
	for i, held := range j.held {
		for name, l := range j.libs {
			if !held[name] {
				return fmt.Errorf("function library %q is on primary %s and not on %s: a shard file gets every library (load it into every primary, or write one file)",
					name, l.from, j.primaries[i])
			}
		}
	}
	return nil
}

// keep reports whether the key h opens in db, from primary i, goes on: a server holds each
// key once, but two primaries may both hold one (a stale copy after an interrupted
// resharding, a key that moved between their snapshots).
func (j *joined) keep(db, i int, h *record.Header) (bool, error) {
	if j.on == record.DupFirst || j.on == record.DupLast {
		kept, listed := j.keys.Get(db, h.Key)
		if !listed { // written since its primary was listed: the first copy read is kept
			if j.fresh == nil {
				j.fresh = record.NewKeySet()
			}
			var dup bool
			if kept, dup = j.fresh.Add(db, h.Key, int64(i)); !dup {
				return true, nil
			}
		}
		if kept != int64(i) && (kept != ownerCopy || j.owner(h.Key) != i) {
			j.dropped++
			return false, nil
		}
		return true, nil
	}
	first, dup := j.keys.Add(db, h.Key, int64(i))
	if !dup {
		return true, nil
	}
	return false, fmt.Errorf("%w: key %q is on the primaries %s and %s (a stale copy after an interrupted resharding, or a key that moved between their snapshots): --on-duplicate first or last keeps one",
		record.ErrDuplicateKey, h.Key, j.primaries[first], j.primaries[i])
}

// A primarySink is the sink of one primary's reading: it has the joined sink to itself from
// a key's Begin to its End.
type primarySink struct {
	j        *joined
	i        int  // the primary's index
	locked   bool // j.mu is held: a key is open
	db       int  // the database open
	dropping bool // the open key is left out
}

func (p *primarySink) lock() {
	if !p.locked {
		p.j.mu.Lock()
		p.locked = true
	}
}

// release lets the other primaries' keys through: at a key's end, or the reading's.
func (p *primarySink) release() {
	if p.locked {
		p.locked = false
		p.j.mu.Unlock()
	}
}

// BeginDB opens db in the sink unless it is open already: the primaries' databases 0 are
// one. Their counts are not the whole's: the sink gets none.
func (p *primarySink) BeginDB(db int, _ record.Counts) error {
	p.lock()
	defer p.release()
	p.db = db
	if db == p.j.open {
		return nil
	}
	p.j.open = db
	return p.j.next.BeginDB(db, record.Counts{})
}

// Begin opens a key, which has the sink until its End (a whole key: until now), unless
// another primary's copy of it is kept.
func (p *primarySink) Begin(h *record.Header) error {
	p.lock()
	keep, err := p.j.keep(p.db, p.i, h)
	if err == nil && !keep {
		p.dropping = !h.Type.Whole()
		p.release()
		return nil
	}
	if err == nil {
		err = p.j.next.Begin(h)
	}
	if err != nil || h.Type.Whole() {
		p.release()
	}
	return err
}

// Add adds a member to the open key.
func (p *primarySink) Add(m *record.Member) error {
	if p.dropping {
		return nil
	}
	return p.j.next.Add(m)
}

// End closes the open key and lets the others through.
func (p *primarySink) End(t *record.StreamTail) error {
	if p.dropping {
		p.dropping = false
		return nil
	}
	defer p.release()
	return p.j.next.End(t)
}

// WriteFunction writes a library the first time a primary gives it; the same name with
// other code is an error naming both primaries.
func (p *primarySink) WriteFunction(code []byte) error {
	p.lock()
	defer p.release()
	name, err := record.LibraryName(code)
	if err != nil {
		return fmt.Errorf("%s: %w", record.LibraryLabel(code), err)
	}
	j, here := p.j, p.j.primaries[p.i]
	j.held[p.i][name] = true
	if l, ok := j.libs[name]; ok {
		if !bytes.Equal(l.code, code) {
			return fmt.Errorf("%s differs between the primaries %s and %s", record.LibraryLabel(code), l.from, here)
		}
		return nil
	}
	j.libs[name] = library{code: bytes.Clone(code), from: here}
	return j.next.WriteFunction(code)
}

// WriteModuleAux passes a module's AUX data on.
func (p *primarySink) WriteModuleAux(a *record.ModuleAux) error {
	p.lock()
	defer p.release()
	return p.j.next.WriteModuleAux(a)
}

var _ record.Sink = (*primarySink)(nil)

// ownerCopy is the number a keyLister keeps with a key that the primary owning its slot
// holds: that copy is the one kept.
const ownerCopy = -1

// keyLister puts each key of primary i in keys, read over every primary in order: the
// primary whose copy is kept. That is the copy of the primary that owns the key's slot
// (ownerCopy); for a key its owner does not hold, the first primary's that holds it
// (first), else the last's.
type keyLister struct {
	record.Discard
	keys  *record.KeySet
	i     int64
	owner func(key []byte) int // the primary that owns the key's slot
	first bool
	db    int
}

// BeginDB notes db.
func (l *keyLister) BeginDB(db int, _ record.Counts) error { l.db = db; return nil }

// Begin puts the key.
func (l *keyLister) Begin(h *record.Header) error {
	if int64(l.owner(h.Key)) == l.i {
		l.keys.Put(l.db, h.Key, ownerCopy)
		return nil
	}
	if kept, listed := l.keys.Get(l.db, h.Key); listed && (kept == ownerCopy || l.first) {
		return nil
	}
	l.keys.Put(l.db, h.Key, l.i)
	return nil
}
