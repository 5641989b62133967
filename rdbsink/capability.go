package rdbsink

import (
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

// Needs returns the feature the key h opens needs in a file, 0 for none: Streams for a
// stream, ModuleValues for a module value, HashFieldTTL for a hash with field TTLs.
func Needs(h *record.Header) rdb.Feature {
	switch {
	case h.Type == record.Stream:
		return rdb.Streams
	case h.Type == record.Module:
		return rdb.ModuleValues
	case h.HasFieldTTLs():
		return rdb.HashFieldTTL
	}
	return 0
}

// Check returns nil when a Writer with capabilities c takes the key h opens, and otherwise
// the CannotHoldError of the feature the key needs (see Needs), which the Writer would fail
// with. Under DropFieldTTL it takes a hash with field TTLs (without them).
func Check(c rdb.Capabilities, h *record.Header) error {
	f := Needs(h)
	if f == 0 || c.Can(f) || f == rdb.HashFieldTTL && c.DropFieldTTL {
		return nil
	}
	return c.Refuse(f)
}
