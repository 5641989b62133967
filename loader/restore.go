package loader

import (
	"context"
	"errors"

	"github.com/rdbgen/rdbgen/resp"
)

// The Restore method: each record is one RESTORE command (resp.Options.Restore), streamed on
// the raw connections of Mass. With more than one worker, a fanout hands whole records to
// the connections in turn: a record's commands (a few, for one sent as commands) stay on
// one connection, in order, and each database's SELECT goes to every connection.

// openRestore opens the Workers connections of the Restore method to addr.
func (l *load) openRestore(ctx context.Context, addr string, n *nodeCounts) (conduit, error) {
	if l.o.Workers == 1 {
		return l.openMass(ctx, addr, n)
	}
	f := &fanout{}
	for range l.o.Workers {
		m, err := l.openMass(ctx, addr, n)
		if err != nil {
			f.close()
			return nil, err
		}
		f.conns = append(f.conns, m)
	}
	return f, nil
}

// A fanout is a conduit of several connections that take whole records in turn.
type fanout struct {
	conns []*massConduit
	cur   int // the connection of the record being sent
}

// emit sends a command of a record on the current connection, and SELECT on every one.
func (f *fanout) emit(cmd *resp.Command) error {
	if cmd.Key == nil {
		for _, c := range f.conns {
			if err := c.emit(cmd); err != nil {
				return err
			}
		}
		return nil
	}
	if err := f.conns[f.cur].emit(cmd); err != nil {
		return err
	}
	if cmd.Last {
		f.cur = (f.cur + 1) % len(f.conns)
	}
	return nil
}

// finish finishes every connection and returns their failures.
func (f *fanout) finish() error {
	var errs []error
	for _, c := range f.conns {
		if err := c.finish(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// close closes every connection.
func (f *fanout) close() {
	for _, c := range f.conns {
		c.close()
	}
}
