package encoder

import "github.com/rdbgen/rdbgen/rdb"

// Hashes: a listpack (type 16, RDB 10+) or ziplist (type 13, before) of field, value, field,
// value… when the hash has at most HashMaxListpackEntries fields and no field or value is
// longer than HashMaxListpackValue bytes; else the plain type 4, streamed.

// BeginHash opens a hash record of the given number of fields, each then added with AddField.
// expireAtMS is the absolute expiry in Unix ms, or 0 for none. A hash over the entries
// threshold streams in constant memory; a smaller one is held until End.
func (w *Writer) BeginHash(key []byte, fields uint64, expireAtMS int64) error {
	if err := w.beginCollection(hashCollection, key, fields, expireAtMS); err != nil {
		return err
	}
	if fields > uint64(w.limits.HashMaxListpackEntries) {
		w.startPlain(typeHash)
		return w.maybeFlush()
	}
	return nil
}

// addField adds a field and its value to the open hash. Fields must be unique (see
// "Unique members").
func (w *Writer) addField(field, value []byte) error {
	if err := w.checkAdd(hashCollection, field); err != nil {
		return err
	}
	c := &w.coll
	if !c.plain && max(len(field), len(value)) > w.limits.HashMaxListpackValue {
		w.startPlain(typeHash)
	}
	if c.plain {
		w.buf = w.appendString(w.buf, field)
		w.buf = w.appendString(w.buf, value)
		return w.maybeFlush()
	}
	c.hold(field)
	c.hold(value)
	return nil
}

// endHash writes a held hash in its compact encoding.
func (w *Writer) endHash() {
	typ := byte(typeHashListpack)
	if !w.has.has(rdb.ListpackEncodings) {
		typ = typeHashZiplist
	}
	w.writeCompact(typ, w.packHeld())
}
