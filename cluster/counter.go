package cluster

import "github.com/rdbgen/rdbgen/record"

// A Counter counts the keys each shard of a layout will hold, for WriterOptions.Counts: a
// first pass over the keys alone, before the records are written, lets every file declare
// its exact RESIZEDB counts where the Writer cannot fill them in last (destinations that are
// not files: see WriterOptions.FillCounts).
//
// It counts by slot, in arrays of its own (256 KiB), and adds the slots up by shard in
// Counts: a key costs its hash and one increment, and the Counters of parts counted side by
// side share no cache line. (Counting by shard, the few counts of two Counters allocated
// together sat on one cache line, which the two cores then took from each other at every
// key: the counting pass of 10M keys took 0.2 s instead of 0.08 s.)
type Counter struct {
	layout        *Layout
	slots         slotter
	keys, expires [Slots]uint64
}

// NewCounter returns a Counter for layout.
func NewCounter(layout *Layout) *Counter {
	return &Counter{layout: layout, slots: newSlotter()}
}

// Add counts key, with an expiry or not.
func (c *Counter) Add(key []byte, expires bool) {
	s := c.slots.slot(key)
	c.keys[s]++
	if expires {
		c.expires[s]++
	}
}

// Counts returns the counts of each shard so far.
func (c *Counter) Counts() []record.Counts {
	counts := make([]record.Counts, c.layout.Len())
	for s := range Slots {
		n := &counts[c.layout.Owner(s)]
		n.Keys += c.keys[s]
		n.Expires += c.expires[s]
	}
	return counts
}
