package encoder

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rdbgen/rdbgen/rdb"
)

// Hashes whose fields expire (Redis 7.4+, RDB 12) are written as Redis 7.4 writes them:
//
//   - within the hash thresholds, type 25 (listpack-ex): the smallest field expiry (8 bytes
//     LE, 0 for none), then a listpack of field, value, expiry triples, expiry an absolute
//     Unix ms integer or 0 for none, ordered by expiry with the fields that do not expire
//     last: the order listpackExAddNew gives fields added one after another;
//   - beyond them, type 24: the smallest field expiry, the field count, and per field its
//     expiry relative to the smallest plus 1 (0 for none), the field and the value, streamed
//     in constant memory; a hash of which no field expires is a plain hash (type 4).
//
// In Valkey 9's format (ValkeyFormat, VALKEY080) such a hash is Valkey's type 22
// (RDB_TYPE_HASH_2), as its rdbSaveObject writes a hash table with volatile fields: the
// field count, then per field the field, the value and the expiry as 8 bytes little-endian
// Unix ms, -1 for a field that does not expire; streamed in constant memory, whatever the
// thresholds (Valkey loads type 22 into a hash table).

// Record type bytes of hashes with field TTLs.
const (
	typeHashMetadata   = 24
	typeHashListpackEx = 25
	typeValkeyHash2    = 22 // in VALKEY080 only
)

// maxFieldExpiry is the largest field expiry Redis loads (EB_EXPIRE_TIME_MAX).
const maxFieldExpiry = 1<<48 - 1

// Errors of hashes with field TTLs, for errors.Is.
var (
	ErrFieldExpiry = errors.New("encoder: field expiry out of range")
)

// BeginHashTTL opens a hash of n fields some of which expire: minFieldExpireAtMS is
// the smallest field expiry (absolute Unix ms), 0 when no field expires. Fields follow with
// AddField. It needs rdb.HashFieldTTL (RDB 12); without, it fails with an rdb.CannotHoldError, or with
// Options.DropFieldTTL opens a plain hash that AddField fills without the TTLs.
func (w *Writer) BeginHashTTL(key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	if w.err == nil && !w.closed && !w.has.has(rdb.HashFieldTTL) {
		if !w.caps.DropFieldTTL {
			return w.refuse(key, rdb.HashFieldTTL)
		}
		err := w.BeginHash(key, n, expireAtMS)
		w.coll.noTTL = err == nil
		return err
	}
	if minFieldExpireAtMS < 0 || minFieldExpireAtMS > maxFieldExpiry {
		return w.fail(fmt.Errorf("write key %q: smallest field expiry %d: %w (0 to %d)", key, minFieldExpireAtMS, ErrFieldExpiry, int64(maxFieldExpiry)))
	}
	if err := w.beginCollection(hashTTLCollection, key, n, expireAtMS); err != nil {
		return err
	}
	w.coll.minTTL = minFieldExpireAtMS
	if n > uint64(w.limits.HashMaxListpackEntries) || w.has.has(rdb.ValkeyFormat) {
		w.startPlainTTL()
		return w.maybeFlush()
	}
	return nil
}

// addFieldTTL adds a field, its value and its expiry (absolute Unix ms, 0 for none) to
// the hash opened by BeginHashTTL. An expiry must be at least the declared smallest
// one, and 0 when that is 0.
func (w *Writer) addFieldTTL(field, value []byte, expireAtMS int64) error {
	if w.coll.noTTL {
		return w.addField(field, value)
	}
	if err := w.checkAdd(hashTTLCollection, field); err != nil {
		return err
	}
	c := &w.coll
	if expireAtMS != 0 && (expireAtMS < c.minTTL || c.minTTL == 0 || expireAtMS > maxFieldExpiry) {
		return w.fail(fmt.Errorf("write key %q: field %q expires at %d: %w (declared smallest %d, largest %d)",
			c.key, field, expireAtMS, ErrFieldExpiry, c.minTTL, int64(maxFieldExpiry)))
	}
	if !c.plain && max(len(field), len(value)) > w.limits.HashMaxListpackValue {
		w.startPlainTTL()
	}
	if c.plain {
		w.appendFieldTTL(field, value, expireAtMS)
		return w.maybeFlush()
	}
	c.hold(field)
	c.hold(value)
	c.ttls = append(c.ttls, expireAtMS)
	return nil
}

// startPlainTTL writes the header of a type 24 hash (a plain type 4 one when no field
// expires) and the fields held so far.
func (w *Writer) startPlainTTL() {
	c := &w.coll
	if c.minTTL == 0 {
		w.startPlain(typeHash)
		return
	}
	if w.has.has(rdb.ValkeyFormat) {
		w.appendRecordHeader(c.key, c.expireAt, typeValkeyHash2)
		w.buf = appendLength(w.buf, c.declared)
		c.plain = true
		return
	}
	w.appendRecordHeader(c.key, c.expireAt, typeHashMetadata)
	w.buf = appendMillis(w.buf, c.minTTL)
	w.buf = appendLength(w.buf, c.declared)
	c.plain = true
	for i, ttl := range c.ttls {
		w.appendFieldTTL(c.member(2*i), c.member(2*i+1), ttl)
	}
	c.members, c.ends, c.ttls = c.members[:0], c.ends[:0], c.ttls[:0]
}

// appendFieldTTL appends a field of a type 24 hash (or, with no expiries, a type 4 one; in
// ValkeyFormat, a type 22 one).
func (w *Writer) appendFieldTTL(field, value []byte, expireAtMS int64) {
	c := &w.coll
	if c.minTTL != 0 && w.has.has(rdb.ValkeyFormat) {
		w.buf = w.appendString(w.buf, field)
		w.buf = w.appendString(w.buf, value)
		if expireAtMS == 0 {
			expireAtMS = -1
		}
		w.buf = appendMillis(w.buf, expireAtMS)
		return
	}
	if c.minTTL != 0 {
		ttl := uint64(0)
		if expireAtMS != 0 {
			ttl = uint64(expireAtMS-c.minTTL) + 1
		}
		w.buf = appendLength(w.buf, ttl)
	}
	w.buf = w.appendString(w.buf, field)
	w.buf = w.appendString(w.buf, value)
}

// endHashTTL writes a held hash as a type 25 listpack.
func (w *Writer) endHashTTL() error {
	c := &w.coll
	order := make([]int, len(c.ttls))
	for i := range order {
		order[i] = i
	}
	// listpackExAddNew puts a field before the first one that expires no earlier or not at
	// all: equal expiries end up last added first, fields that do not expire in their order.
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := c.ttls[i], c.ttls[j]
		switch {
		case a == 0 && b == 0:
			return 0
		case a == 0:
			return 1
		case b == 0:
			return -1
		case a != b:
			return int(min(max(a-b, -1), 1))
		default:
			return j - i
		}
	})
	minTTL := int64(0)
	if len(order) > 0 {
		minTTL = c.ttls[order[0]]
	}
	c.pack.ziplist = false
	b := c.pack.begin(c.blob[:0])
	for _, i := range order {
		b = c.pack.add(b, c.member(2*i))
		b = c.pack.add(b, c.member(2*i+1))
		b = c.pack.addInt(b, c.ttls[i])
	}
	c.blob = c.pack.finish(b)
	w.appendRecordHeader(c.key, c.expireAt, typeHashListpackEx)
	w.buf = appendMillis(w.buf, minTTL)
	w.buf = w.appendString(w.buf, c.blob)
	return nil
}
