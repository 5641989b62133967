package encoder

import "fmt"

// The per-key calls. A string or a module value is written whole by one call
// (WriteString, WriteModule). A hash, list, set, sorted set or stream is opened by its
// Begin call, filled by one Add call per member, and closed by End; a stream takes its
// metadata and consumer groups (SetStreamMeta, AddStreamGroup) after its entries.

// WriteString writes a string key: its name, value and expiry (absolute Unix ms, 0 for
// none).
func (w *Writer) WriteString(key, value []byte, expireAtMS int64) error {
	if !w.recordReady(expireAtMS) {
		if err := w.checkRecord(key, expireAtMS); err != nil {
			return err
		}
	}
	if w.payload {
		w.appendRecordHeader(key, expireAtMS, typeString)
		w.buf = w.appendString(w.buf, value)
		return w.maybeFlush()
	}
	// appendRecordHeader, spelled out: the buffer stays in a local for the whole record.
	b := w.buf
	if expireAtMS > 0 {
		b = appendExpiry(b, expireAtMS)
		w.stats.Expires++
	}
	b = append(b, typeString)
	if isShort(key) && isShort(value) && cap(b)-len(b) >= 2+len(key)+len(value) {
		b = appendShort(appendShort(b, key), value)
	} else {
		b = w.appendString(w.appendString(b, key), value)
	}
	w.buf = b
	w.stats.Keys++
	return w.maybeFlush()
}

// AddField adds a field of the open hash, its value and its expiry (absolute Unix ms, 0
// for none). A field may expire only in a hash opened by BeginHashTTL (else
// ErrFieldExpiry); where the file cannot hold field TTLs and Options.DropFieldTTL is set,
// the expiry is dropped. Fields must be unique (see "Unique members").
func (w *Writer) AddField(field, value []byte, expireAtMS int64) error {
	c := &w.coll
	if c.kind == hashTTLCollection || c.noTTL {
		return w.addFieldTTL(field, value, expireAtMS)
	}
	if expireAtMS != 0 && c.kind == hashCollection && w.err == nil {
		return w.fail(fmt.Errorf("write key %q: field %q expires at %d: %w (the hash declared no field expiry)",
			c.key, field, expireAtMS, ErrFieldExpiry))
	}
	return w.addField(field, value)
}

// Fail makes err the Writer's error, unless it has one already, and returns the Writer's
// error: every later call returns it, and Close writes nothing more. A caller that checks
// a key before writing it (see package rdbsink) fails the Writer with what it found.
func (w *Writer) Fail(err error) error { return w.fail(err) }
