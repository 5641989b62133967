package decoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// readValkeyHash reads Valkey 9's RDB_TYPE_HASH_2 (type 22 under the VALKEY magic), as
// rdbSaveObject and rdbLoadObject in Valkey's src/rdb.c write and read it: a length, then
// per field the field, the value and its expiry as 8 bytes little-endian in Unix ms, -1 for
// none. The fields are held to find the smallest expiry, which the header carries.
func (rd *Reader) readValkeyHash(exp int64, sink record.Sink) error {
	in := rd.in
	n, err := in.plainLength()
	if err != nil {
		return err
	}
	if n == 0 {
		rd.stats.Empty++
		return nil
	}
	rd.held, rd.heldEnds = rd.held[:0], rd.heldEnds[:0]
	var min int64
	for range n {
		if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
			return err
		}
		if err := rd.checkMember(4, rd.a); err != nil {
			return err
		}
		if rd.b, err = in.str(rd.b, &rd.lzf); err != nil {
			return err
		}
		v, err := in.uint64LE()
		if err != nil {
			return err
		}
		ttl := int64(v)
		switch {
		case ttl == -1:
			ttl = 0
		case ttl < 0 || ttl > maxFieldTTL:
			return fmt.Errorf("%w: field expiry %d", errBadHashTTL, ttl)
		case ttl == 0:
			ttl = Expired // a time long past, as Valkey reads it; 0 would mean none
		}
		if ttl > 0 && (min == 0 || ttl < min) {
			min = ttl
		}
		if err := rd.hold(ttl); err != nil {
			return err
		}
	}
	return rd.emitHeld(n, exp, min, sink)
}
