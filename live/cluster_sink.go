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
// database 0 opened once, each library once.
type joined struct {
	mu        sync.Mutex // held from a key's Begin to its End
	next      record.Sink
	open      int // the database open in next, -1 before the first
	primaries []Address
	libs      map[string]library // by name, every library written
	held      []map[string]bool  // per primary, the libraries it holds
}

func newJoined(next record.Sink, primaries []Address) *joined {
	j := &joined{next: next, open: -1, primaries: primaries, libs: map[string]library{}}
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

// A primarySink is the sink of one primary's reading: it has the joined sink to itself from
// a key's Begin to its End.
type primarySink struct {
	j      *joined
	i      int  // the primary's index
	locked bool // j.mu is held: a key is open
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
	if db == p.j.open {
		return nil
	}
	p.j.open = db
	return p.j.next.BeginDB(db, record.Counts{})
}

// Begin opens a key, which has the sink until its End (a whole key: until now).
func (p *primarySink) Begin(h *record.Header) error {
	p.lock()
	err := p.j.next.Begin(h)
	if err != nil || h.Type.Whole() {
		p.release()
	}
	return err
}

// Add adds a member to the open key.
func (p *primarySink) Add(m *record.Member) error { return p.j.next.Add(m) }

// End closes the open key and lets the others through.
func (p *primarySink) End(t *record.StreamTail) error {
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
