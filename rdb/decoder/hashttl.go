package decoder

import (
	"encoding/binary"
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// Hashes with field TTLs (Redis 7.4): listpacks of field, value, TTL triples (types 25 and
// the pre-release 23) and hashtables (24 and the pre-release 22), as
// /work/shared/notes/rdb-streams-field-ttl.md §2 lays them out.

// maxFieldTTL is the largest field expiry Redis loads (EB_EXPIRE_TIME_MAX, 2^48-1).
const maxFieldTTL = 1<<48 - 1

// readHashTTL reads a hashtable hash with field TTLs: type 24 (minExpire, then TTLs relative
// to it) or the pre-release type 22 (absolute TTLs, no minExpire: the fields are held to
// find the smallest).
func (rd *Reader) readHashTTL(t byte, exp int64, sink record.Sink) error {
	in := rd.in
	var minExp uint64
	var err error
	if t == 24 {
		if minExp, err = in.uint64LE(); err != nil {
			return err
		}
		if minExp > 1<<48 {
			return fmt.Errorf("%w: minimum expiry %d", errBadHashTTL, minExp)
		}
	}
	n, err := in.plainLength()
	if err != nil {
		return err
	}
	if n == 0 {
		rd.stats.Empty++
		return nil
	}
	field := func() (ttl int64, err error) {
		v, err := in.plainLength()
		if err != nil {
			return 0, err
		}
		if v != 0 && t == 24 {
			v += minExp - 1
		}
		if v > maxFieldTTL {
			return 0, fmt.Errorf("%w: field expiry %d", errBadHashTTL, v)
		}
		if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
			return 0, err
		}
		if err := rd.checkMember(4, rd.a); err != nil {
			return 0, err
		}
		rd.b, err = in.str(rd.b, &rd.lzf)
		return int64(v), err
	}
	if t == 24 {
		rd.stats.Keys++
		h := record.Header{Key: rd.key, Type: record.Hash, Len: n, ExpireAtMS: exp, MinFieldExpireAtMS: int64(minExp), FieldTTLs: true}
		if err := rd.open(sink, h); err != nil {
			return err
		}
		for range n {
			ttl, err := field()
			if err != nil {
				return err
			}
			if err := rd.add(sink, rd.a, rd.b, 0, ttl); err != nil {
				return err
			}
			if err := rd.member(); err != nil {
				return err
			}
		}
		return rd.endCollection(4, sink)
	}
	// Type 22: hold field, value and ttl.
	rd.held, rd.heldEnds = rd.held[:0], rd.heldEnds[:0]
	var min int64
	for range n {
		ttl, err := field()
		if err != nil {
			return err
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

// hold keeps the field rd.a, its value rd.b and its expiry ttl for emitHeld.
func (rd *Reader) hold(ttl int64) error {
	if len(rd.held)+len(rd.a)+len(rd.b)+8 > rd.opts.MaxHeldBytes {
		return fmt.Errorf("%w: hash: its fields pass %d bytes (Options.MaxHeldBytes)", ErrTooLarge, rd.opts.MaxHeldBytes)
	}
	rd.held = binary.LittleEndian.AppendUint64(rd.held, uint64(ttl))
	rd.held = append(rd.held, rd.a...)
	rd.heldEnds = append(rd.heldEnds, len(rd.held))
	rd.held = append(rd.held, rd.b...)
	rd.heldEnds = append(rd.heldEnds, len(rd.held))
	return nil
}

// emitHeld passes on the hash of n fields held by hold, whose smallest field expiry is min
// (0: none of them expires).
func (rd *Reader) emitHeld(n uint64, exp, min int64, sink record.Sink) error {
	rd.stats.Keys++
	h := record.Header{Key: rd.key, Type: record.Hash, Len: n, ExpireAtMS: exp, MinFieldExpireAtMS: min, FieldTTLs: true}
	if err := rd.open(sink, h); err != nil {
		return err
	}
	start := 0
	for i := 0; i < len(rd.heldEnds); i += 2 {
		ttl := int64(binary.LittleEndian.Uint64(rd.held[start:]))
		f, v := rd.held[start+8:rd.heldEnds[i]], rd.held[rd.heldEnds[i]:rd.heldEnds[i+1]]
		start = rd.heldEnds[i+1]
		if err := rd.add(sink, f, v, 0, ttl); err != nil {
			return err
		}
		if err := rd.member(); err != nil {
			return err
		}
	}
	return rd.endCollection(4, sink)
}
