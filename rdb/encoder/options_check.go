package encoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
)

// Check checks o as NewWriter does, without writing anything, and returns what a file
// written under o can hold: its target (the named one; with none named, rdb.DefaultTarget, or
// with RDBVersion set the oldest Redis that loads it) and RDB version. An option out of range
// is an error wrapping rdb.ErrInvalidOption (an unknown target, rdb.ErrUnknownTarget) that names it.
func (o Options) Check() (rdb.Capabilities, error) {
	t, err := rdb.ResolveTarget(o.Target, o.RDBVersion)
	if err != nil {
		return rdb.Capabilities{}, err
	}
	c := rdb.Capabilities{Target: t, RDBVersion: t.RDBVersion, DropFieldTTL: o.DropFieldTTL}
	if o.RDBVersion != 0 {
		c.RDBVersion = o.RDBVersion
	}
	if o.BufferSize != 0 && o.BufferSize < 4096 {
		return rdb.Capabilities{}, fmt.Errorf("%w: buffer size %d (at least 4096)", rdb.ErrInvalidOption, o.BufferSize)
	}
	if o.Thresholds != nil {
		if err := o.Thresholds.Validate(); err != nil {
			return rdb.Capabilities{}, err
		}
	}
	return c, nil
}
