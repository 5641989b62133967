package cluster

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// The methods of record.Sink.

// BeginDB accepts database 0 only, once: the shards' files hold it from the start, and each
// shard's counts come from WriterOptions.Counts, not from c (which counts the whole
// database). With WriterOptions.FillCounts, c predicts each shard's counts, in proportion
// to its slots, for the room its header needs. Other databases fail with ErrDB.
func (w *Writer) BeginDB(db int, c record.Counts) error {
	switch {
	case w.closed:
		return encoder.ErrClosed
	case db != 0:
		return fmt.Errorf("%w: records of db %d", ErrDB, db)
	case w.began:
		return fmt.Errorf("%w: db 0", encoder.ErrDBReopened)
	}
	w.began, w.declared = true, c
	return nil
}

// Begin writes a string to the shard of its key, or opens a collection or stream there,
// whose members and End go to that shard. While a collection is open, a key begun goes to
// its shard, which refuses it with encoder.ErrCollectionOpen as a single rdbsink.Writer
// would.
func (w *Writer) Begin(h *record.Header) error {
	if w.closed {
		return encoder.ErrClosed
	}
	if w.cur != nil {
		return w.cur.Begin(h) // which refuses it
	}
	slot := w.slots.last(h.Key) // inlined: the call to slot costs more than the rest
	if slot < 0 {
		slot = w.slots.next(h.Key)
	}
	s := w.shards[w.shardOf(slot)]
	if err := s.Begin(h); err != nil || h.Type.Whole() {
		return err
	}
	w.cur = s
	return nil
}

// Add adds a member to the open collection or stream.
func (w *Writer) Add(m *record.Member) error {
	if w.cur == nil {
		return encoder.ErrNoCollection
	}
	return w.cur.Add(m)
}

// End closes the open collection or stream.
func (w *Writer) End(t *record.StreamTail) error {
	s := w.cur
	if s == nil {
		return encoder.ErrNoCollection
	}
	w.cur = nil
	return s.End(t)
}

// WriteFunction writes a function library to every shard: every node of a cluster needs
// the libraries, which belong to no slot. An error names the shard.
func (w *Writer) WriteFunction(code []byte) error {
	if w.closed {
		return encoder.ErrClosed
	}
	for i, s := range w.shards {
		if err := s.WriteFunction(code); err != nil {
			return fmt.Errorf("shard %d: %w", i, err)
		}
	}
	return nil
}

// WriteModuleAux writes a module's AUX data to every shard, as WriteFunction does
// libraries: a node loads the module, and the module its data, whatever its slots. An
// error names the shard.
func (w *Writer) WriteModuleAux(a *record.ModuleAux) error {
	if w.closed {
		return encoder.ErrClosed
	}
	for i, s := range w.shards {
		if err := s.WriteModuleAux(a); err != nil {
			return fmt.Errorf("shard %d: %w", i, err)
		}
	}
	return nil
}

var _ record.Sink = (*Writer)(nil)
