package encoder

import "errors"

// ErrUnsupported is returned for records the Writer cannot write yet (or for its target).
var ErrUnsupported = errors.New("encoder: unsupported")

// BeginStream opens a stream record; see the comment at StreamID for the sequence of calls.
func (w *Writer) BeginStream(key []byte, expireAtMS int64) error {
	return w.fail(errors.Join(ErrUnsupported, errors.New("streams are not written yet")))
}

// AddStreamEntry adds one entry to the open stream: fields alternate name and value.
func (w *Writer) AddStreamEntry(id StreamID, fields [][]byte) error {
	return w.fail(ErrNoCollection)
}

// SetStreamMeta sets the open stream's metadata; it comes after the entries.
func (w *Writer) SetStreamMeta(meta StreamMeta) error {
	return w.fail(ErrNoCollection)
}

// AddStreamGroup adds a consumer group to the open stream, after its entries.
func (w *Writer) AddStreamGroup(g *StreamGroup) error {
	return w.fail(ErrNoCollection)
}

// BeginHashWithFieldTTL opens a hash of n fields some of which expire: minFieldExpireAtMS is
// the smallest field expiry (absolute Unix ms). Fields follow with AddFieldWithTTL. It needs
// RDB 12 (Redis 7.4+).
func (w *Writer) BeginHashWithFieldTTL(key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	return w.fail(errors.Join(ErrUnsupported, errors.New("hash field TTLs are not written yet")))
}

// AddFieldWithTTL adds a field, its value and its expiry (absolute Unix ms, 0 for none) to
// the hash opened by BeginHashWithFieldTTL.
func (w *Writer) AddFieldWithTTL(field, value []byte, expireAtMS int64) error {
	return w.fail(ErrNoCollection)
}
