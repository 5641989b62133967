package encoder

import "fmt"

// Check checks o as NewWriter does, without writing anything, and returns what a file
// written under o can hold: its target (the named one; with none named, DefaultTarget, or
// with RDBVersion set the oldest Redis that loads it) and RDB version. An option out of range
// is an error wrapping ErrInvalidOption (an unknown target, ErrUnknownTarget) that names it.
func (o Options) Check() (Capabilities, error) {
	t, err := targetFor(o.Target, o.RDBVersion)
	if err != nil {
		return Capabilities{}, err
	}
	c := Capabilities{Target: t, RDBVersion: t.RDBVersion, DropFieldTTL: o.DropFieldTTL}
	if o.RDBVersion != 0 {
		c.RDBVersion = o.RDBVersion
	}
	if o.BufferSize != 0 && o.BufferSize < 4096 {
		return Capabilities{}, fmt.Errorf("%w: buffer size %d (at least 4096)", ErrInvalidOption, o.BufferSize)
	}
	if o.Thresholds != nil {
		if err := o.Thresholds.validate(); err != nil {
			return Capabilities{}, err
		}
	}
	return c, nil
}
