package convert

import (
	"context"
	"runtime"

	"github.com/rdbgen/rdbgen/record"
)

// Whether a conversion takes a second core is decided on the first keys: the reader hands
// strings over from its buffer without a copy, and a record.Pipe, which copies each one
// across, costs more than the second core saves (10M default keys: 1.20 s with it, 1.07 s
// without); collections cost both sides much more per member, and the writer's side on
// a core of its own makes up for the copy (1M hashes of 1-40 fields: 6.05 s with it, 9.07 s
// without).
const (
	// pipeAfterKeys is the number of keys written directly before the decision.
	pipeAfterKeys = 1 << 14
	// pipeMembersPerKey is the members a key must have on average for the Pipe.
	pipeMembersPerKey = 2
)

// writeThrough writes src into sink, the first keys directly and, on a machine of more
// than one core where those keys were mostly collections, the rest through a record.Pipe:
// the reader goes on parsing while the filter, the target check and the writer work on the
// records before, on another core. The sink's error comes first: it met an earlier record
// than an error of the source.
func writeThrough(ctx context.Context, src record.Source, sink record.Sink) error {
	if runtime.GOMAXPROCS(0) < 2 {
		return src.WriteTo(ctx, sink)
	}
	return (&twoCores{to: sink, next: sink}).writeFrom(ctx, src)
}

// writeFrom writes src into w and closes the Pipe, if w took one.
func (w *twoCores) writeFrom(ctx context.Context, src record.Source) error {
	err := src.WriteTo(ctx, w)
	if w.pipe != nil {
		if perr := w.pipe.Close(); perr != nil {
			err = perr
		}
	}
	return err
}

// twoCores is a Sink that passes its calls to next, which is the sink itself until it
// takes a record.Pipe into it.
type twoCores struct {
	to, next      record.Sink
	pipe          *record.Pipe
	keys, members uint64
}

func (w *twoCores) BeginDB(db int, c record.Counts) error { return w.next.BeginDB(db, c) }

func (w *twoCores) Begin(h *record.Header) error {
	if w.pipe == nil {
		if w.keys++; w.keys == pipeAfterKeys && w.members >= pipeMembersPerKey*w.keys {
			w.pipe = record.NewPipe(w.to)
			w.next = w.pipe
		}
	}
	return w.next.Begin(h)
}

func (w *twoCores) Add(m *record.Member) error {
	w.members++
	return w.next.Add(m)
}

func (w *twoCores) End(t *record.StreamTail) error           { return w.next.End(t) }
func (w *twoCores) WriteFunction(code []byte) error          { return w.next.WriteFunction(code) }
func (w *twoCores) WriteModuleAux(a *record.ModuleAux) error { return w.next.WriteModuleAux(a) }
