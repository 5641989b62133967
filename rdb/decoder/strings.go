package decoder

import (
	"encoding/binary"

	"github.com/rdbgen/rdbgen/record"
)

// Strings in a run. A dump of strings (rdbgen's default dataset, a cache) is a run of
// records of a type byte 0, a key and a value of under 16384 bytes each, perhaps after a
// millisecond expiry. readStrings reads such records while they are whole in the input
// buffer, with no copy: the key and the value the sink is given are slices of the buffer,
// valid until the next read, as a Sink's Header is valid only during its call. What a
// record read this way yields (counts, offsets, progress, ctx checks, key order) is what
// readRecord yields for it; any other record, and one that straddles the buffer's end,
// is left to the general path.

// stringsFast reports whether readStrings may read records under Options.OnDuplicate: it
// needs no more than the order of the keys, or their hashes once that order broke (keep
// would pass every record on). WriteTo asks it once, its choices made.
func (rd *Reader) stringsFast() bool {
	return stringsFastOn && (rd.opts.OnDuplicate == "" || rd.order != nil || rd.checked && len(rd.dups) == 0)
}

// stringsFastOn is false in tests that compare what readStrings yields with the general
// path's.
var stringsFastOn = true

// readStrings reads the string records that come next in db, opened in sink, while each
// is whole in the buffer (WriteTo calls it when no expiry and no module metadata wait for
// the next key); records counts the records read, as WriteTo's loop does. It returns at
// the first record it leaves to the general path, or with the sink's error or ctx's, as
// they are.
func (rd *Reader) readStrings(db int, sink record.Sink, records *uint64) error {
	in := rd.in
	h, ready := &rd.hdr, false
	for {
		buf, r := in.buf[:in.w], in.r
		var exp int64
		if r < len(buf) && buf[r] == opExpireTimeMS {
			if r+9 >= len(buf) {
				return nil
			}
			exp = loadExpiry(int64(binary.LittleEndian.Uint64(buf[r+1:r+9])), true)
			r += 9
		}
		if r >= len(buf) || buf[r] != 0 {
			return nil
		}
		k, v, ok := shortString(buf, r+1) // the key at buf[k:v], then the value's length
		if !ok {
			return nil
		}
		w, end, ok := shortString(buf, v)
		if !ok {
			return nil
		}
		key, value := buf[k:v:v], buf[w:end:end]
		rd.recStart, rd.recType = in.base+int64(r), 0
		in.r = end
		rd.stats.Keys++
		if !ready { // the fields no string sets, once a run (a sink never changes h)
			*h, ready = record.Header{Type: record.String}, true
		}
		h.Key, h.Value, h.ExpireAtMS = key, value, exp
		if err := sink.Begin(h); err != nil {
			return err
		}
		if o := rd.order; o != nil && (rd.log != nil || !o.takeWords(db, key)) {
			rd.seenInOrder(db, key)
		}
		if exp != 0 {
			rd.stats.Expires++
		}
		rd.types[0]++
		*records++
		if *records%4096 == 0 {
			if err := rd.ctx.Err(); err != nil {
				return err
			}
			if rd.opts.Progress != nil && *records%(1<<14) == 0 {
				rd.progress()
			}
		}
	}
}

// shortString finds the raw string of under 16384 bytes (a length of one or two bytes)
// whose length begins at buf[i] whole in buf: its bytes are buf[from:end]; ok is false
// for another string or one that buf does not hold whole.
func shortString(buf []byte, i int) (from, end int, ok bool) {
	if i >= len(buf) {
		return 0, 0, false
	}
	switch c := int(buf[i]); c >> 6 {
	case 0:
		from, end = i+1, i+1+c
	case 1:
		if i+1 >= len(buf) {
			return 0, 0, false
		}
		from = i + 2
		end = from + (c&0x3f<<8 | int(buf[i+1]))
	default:
		return 0, 0, false
	}
	return from, end, end <= len(buf)
}

// seenInOrder is seen under a keyOrder for key, a slice of the input buffer: in order, it
// is copied as the last key of db; the first out of order is taken into rd.key for seen.
func (rd *Reader) seenInOrder(db int, key []byte) {
	switch {
	case rd.log != nil:
		rd.log.add(keyHash(&rd.seed, db, key))
	case !rd.order.take(db, key):
		rd.key = append(rd.key[:0], key...)
		rd.seen(db)
	}
}
