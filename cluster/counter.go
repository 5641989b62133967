package cluster

import "github.com/rdbgen/rdbgen/encoder"

// A Counter counts the keys each shard of a layout will hold, for WriterOptions.Counts: a
// first pass over the keys alone, before the records are written, lets every file declare
// its exact RESIZEDB counts.
type Counter struct {
	layout *Layout
	counts []encoder.DBInfo
}

// NewCounter returns a Counter for layout.
func NewCounter(layout *Layout) *Counter {
	return &Counter{layout: layout, counts: make([]encoder.DBInfo, layout.Len())}
}

// Add counts key, with an expiry or not.
func (c *Counter) Add(key []byte, expires bool) {
	n := &c.counts[c.layout.ShardOf(key)]
	n.Keys++
	if expires {
		n.Expires++
	}
}

// Counts returns the counts of each shard so far.
func (c *Counter) Counts() []encoder.DBInfo {
	return append([]encoder.DBInfo(nil), c.counts...)
}
