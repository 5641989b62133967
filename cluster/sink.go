package cluster

import (
	"fmt"

	"github.com/rdbgen/rdbgen/encoder"
)

// The methods of record.Sink that a Writer adds to WriteString.

// BeginDB accepts database 0 only, once: the shards' files hold it from the start, and each
// shard's counts come from WriterOptions.Counts, not from info (which counts the whole
// database). With WriterOptions.FillCounts, info predicts each shard's counts, in
// proportion to its slots, for the room its header needs. Other databases fail with ErrDB.
func (w *Writer) BeginDB(db int, info encoder.DBInfo) error {
	switch {
	case w.closed:
		return encoder.ErrClosed
	case db != 0:
		return fmt.Errorf("%w: records of db %d", ErrDB, db)
	case w.began:
		return fmt.Errorf("%w: db 0", encoder.ErrDBReopened)
	}
	w.began, w.declared = true, info
	return nil
}

// begin opens a collection in the shard of key.
func (w *Writer) begin(key []byte, open func(*encoder.Writer) error) error {
	if w.closed {
		return encoder.ErrClosed
	}
	w.cur = w.shardFor(key)
	return open(w.cur)
}

// BeginHash opens a hash of n fields in the shard of key.
func (w *Writer) BeginHash(key []byte, n uint64, expireAtMS int64) error {
	return w.begin(key, func(s *encoder.Writer) error { return s.BeginHash(key, n, expireAtMS) })
}

// BeginList opens a list of n elements in the shard of key.
func (w *Writer) BeginList(key []byte, n uint64, expireAtMS int64) error {
	return w.begin(key, func(s *encoder.Writer) error { return s.BeginList(key, n, expireAtMS) })
}

// BeginSet opens a set of n members in the shard of key.
func (w *Writer) BeginSet(key []byte, n uint64, expireAtMS int64) error {
	return w.begin(key, func(s *encoder.Writer) error { return s.BeginSet(key, n, expireAtMS) })
}

// BeginZSet opens a sorted set of n members in the shard of key.
func (w *Writer) BeginZSet(key []byte, n uint64, expireAtMS int64) error {
	return w.begin(key, func(s *encoder.Writer) error { return s.BeginZSet(key, n, expireAtMS) })
}

// open returns the shard of the open collection.
func (w *Writer) open() (*encoder.Writer, error) {
	if w.cur == nil {
		return nil, encoder.ErrNoCollection
	}
	return w.cur, nil
}

// AddField adds a field to the open hash.
func (w *Writer) AddField(field, value []byte) error {
	s, err := w.open()
	if err != nil {
		return err
	}
	return s.AddField(field, value)
}

// AddElement adds an element to the open list.
func (w *Writer) AddElement(element []byte) error {
	s, err := w.open()
	if err != nil {
		return err
	}
	return s.AddElement(element)
}

// AddMember adds a member to the open set.
func (w *Writer) AddMember(member []byte) error {
	s, err := w.open()
	if err != nil {
		return err
	}
	return s.AddMember(member)
}

// AddScoredMember adds a member to the open sorted set.
func (w *Writer) AddScoredMember(member []byte, score float64) error {
	s, err := w.open()
	if err != nil {
		return err
	}
	return s.AddScoredMember(member, score)
}

// EndCollection closes the open collection.
func (w *Writer) EndCollection() error {
	s, err := w.open()
	if err != nil {
		return err
	}
	w.cur = nil
	return s.EndCollection()
}

// BeginHashWithFieldTTL opens a hash with field TTLs in the shard of key.
func (w *Writer) BeginHashWithFieldTTL(key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	return w.begin(key, func(s *encoder.Writer) error {
		return s.BeginHashWithFieldTTL(key, n, expireAtMS, minFieldExpireAtMS)
	})
}

// AddFieldWithTTL adds a field with its expiry to the open hash.
func (w *Writer) AddFieldWithTTL(field, value []byte, expireAtMS int64) error {
	s, err := w.open()
	if err != nil {
		return err
	}
	return s.AddFieldWithTTL(field, value, expireAtMS)
}

// BeginStream opens a stream in the shard of key.
func (w *Writer) BeginStream(key []byte, expireAtMS int64) error {
	return w.begin(key, func(s *encoder.Writer) error { return s.BeginStream(key, expireAtMS) })
}

// AddStreamEntry adds an entry to the open stream.
func (w *Writer) AddStreamEntry(id encoder.StreamID, fields [][]byte) error {
	s, err := w.open()
	if err != nil {
		return err
	}
	return s.AddStreamEntry(id, fields)
}

// SetStreamMeta sets the open stream's metadata.
func (w *Writer) SetStreamMeta(meta encoder.StreamMeta) error {
	s, err := w.open()
	if err != nil {
		return err
	}
	return s.SetStreamMeta(meta)
}

// AddStreamGroup adds a consumer group to the open stream.
func (w *Writer) AddStreamGroup(g *encoder.StreamGroup) error {
	s, err := w.open()
	if err != nil {
		return err
	}
	return s.AddStreamGroup(g)
}
