package cluster

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A Filter is a record.KeyFilter that passes on to another sink the records whose keys some
// shards of a layout own, and drops the others, members and all: what one process of a split
// that many processes share writes or loads (a pod of a Kubernetes Indexed Job, each with its
// own shard). It is a record.Gate whose Keep looks up the key's slot, computed once, as the
// Writer computes it, so a key costs its hash and the records kept cost what they cost
// without a Filter. Every BeginDB and function library is passed on, with the counts of the
// whole database. Kept and the Gate's Dropped count the keys passed on and dropped.
//
// A Writer behind a Filter writes the files of the shards kept byte for byte as it writes
// them when every record comes: give the others Discard as their destination.
type Filter struct {
	record.Gate
	kept  *[Slots]bool // the slots of the shards kept
	slots slotter
	skip  bool // the open collection is dropped
	// Kept counts the keys passed on.
	Kept uint64
}

// NewFilter returns a Filter that passes on to next the records of the given shards of
// layout. A shard out of range is an error wrapping ErrLayout that names the shards.
func NewFilter(next record.Sink, layout *Layout, shards ...int) (*Filter, error) {
	f := &Filter{kept: new([Slots]bool), slots: newSlotter()}
	f.Next, f.Keep = next, f.keep
	for _, i := range shards {
		if i < 0 || i >= layout.Len() {
			return nil, fmt.Errorf("%w: shard %d of %d shards (0 to %d)", ErrLayout, i, layout.Len(), layout.Len()-1)
		}
		for _, r := range layout.shards[i].Ranges {
			for slot := r.First; slot <= r.Last; slot++ {
				f.kept[slot] = true
			}
		}
	}
	return f, nil
}

// keep is the Gate's Keep: it tells whether the key h opens is passed on, and counts it. A
// key begun while a dropped collection is open is refused with errOpen, as next, had it
// seen the collection, would have refused it.
func (f *Filter) keep(h *record.Header) (bool, error) {
	if f.skip {
		return false, errOpen
	}
	if !f.kept[f.slots.slot(h.Key)] {
		f.skip = !h.Type.Whole()
		return false, nil
	}
	f.Kept++
	return true, nil
}

// End closes the open key: in next when it is kept.
func (f *Filter) End(t *record.StreamTail) error {
	f.skip = false
	return f.Gate.End(t)
}

// Wants tells whether the record of key is kept: a source that asks (Filter is a
// record.KeyFilter) leaves out the records of other shards without computing them, which
// with random values or collections costs far more than the key. A key refused is counted
// as dropped, and must not be written.
func (f *Filter) Wants(key []byte) bool {
	if f.kept[f.slots.slot(key)] {
		return true
	}
	f.Dropped++
	return false
}

var _ record.KeyFilter = (*Filter)(nil)

// Discard is the destination of a shard that is not written, whose records a Filter keeps
// away: a File that keeps nothing, which a Writer can fill in as it fills in files
// (CanFill). Its shard's file gets only its header and end.
var Discard File = discard{}

// discard is Discard: every write succeeds and keeps nothing, and reads read zeros.
type discard struct{}

func (discard) Write(b []byte) (int, error)            { return len(b), nil }
func (discard) WriteAt(b []byte, _ int64) (int, error) { return len(b), nil }
func (discard) ReadAt(b []byte, _ int64) (int, error)  { clear(b); return len(b), nil }
func (discard) Seek(int64, int) (int64, error)         { return 0, nil }
func (discard) Truncate(int64) error                   { return nil }

// errOpen is the error of a record begun while a dropped collection is open, which next,
// had it seen the collection, would have refused.
var errOpen = fmt.Errorf("%w: a new record begun", encoder.ErrCollectionOpen)
