package cluster

import "encoding/binary"

// A slotter returns the slots of a stream of keys, faster than Slot when a key differs from
// the one before it in its last 8 bytes alone, as the numbered keys of a generated dataset
// do. CRC16 with initial value 0 is linear, so for keys of one length CRC16(key) =
// CRC16(previous key) ⊕ CRC16(their xor), and leading zero bytes add nothing: the xor of the
// last 8 bytes costs the 8 lookups of one sliced step, and one lookup when only the last
// byte changed, where a 12-byte key hashed whole costs 12 and a search for '{'. Any other
// key is hashed whole.
type slotter struct {
	prev  []byte // the previous key
	crc   uint16 // its CRC16
	ok    bool   // it has 8 bytes or more, and no '{' but perhaps its last byte: crc is its slot's
	quick int    // len(prev) when ok and it has 9 to 16 bytes, else -1: a key as long may take last
}

// newSlotter returns a slotter with no previous key.
func newSlotter() slotter { return slotter{quick: -1} }

// slot returns the hash slot of key, as Slot does.
func (s *slotter) slot(key []byte) int {
	if slot, ok := s.last(key); ok {
		return slot
	}
	return s.next(key)
}

// last is slot's quick path, small enough to be inlined: a key of 9 to 16 bytes whose last
// byte alone differs from the previous key's costs two words compared and one lookup. It
// loads that last byte alone, so that it waits for no wider store of a key just counted up
// byte by byte. The last byte may be '{': nothing follows it, so it opens no hash tag.
func (s *slotter) last(key []byte) (int, bool) {
	prev := s.prev // as long as key, when s.quick says so
	if len(key) != s.quick {
		return 0, false
	}
	end := len(key) - 1 // the words key[:8] and key[end-8:end] cover all but the last byte
	if [8]byte(key) != [8]byte(prev) || [8]byte(key[end-8:]) != [8]byte(prev[end-8:]) {
		return 0, false
	}
	s.crc ^= crc16Tables[0][key[end]^prev[end]]
	prev[end] = key[end]
	return int(s.crc & (Slots - 1)), true
}

// next is slot beyond its quick path: a key that differs from the previous one in its last
// 8 bytes alone costs the 8 lookups of one sliced step.
func (s *slotter) next(key []byte) int {
	if prev := s.prev; s.ok && len(key) == len(prev) {
		n := len(key) - 8
		tail := binary.LittleEndian.Uint64(key[n:])
		if !hasBrace(tail) && sameHead(key, prev, n) {
			d, t := tail^binary.LittleEndian.Uint64(prev[n:]), &crc16Tables
			s.crc ^= t[7][byte(d)] ^ t[6][byte(d>>8)] ^ t[5][byte(d>>16)] ^ t[4][byte(d>>24)] ^
				t[3][byte(d>>32)] ^ t[2][byte(d>>40)] ^ t[1][byte(d>>48)] ^ t[0][byte(d>>56)]
			binary.LittleEndian.PutUint64(prev[n:], tail)
			return int(s.crc & (Slots - 1))
		}
	}
	return s.whole(key)
}

// whole hashes key whole, and keeps it for the next.
func (s *slotter) whole(key []byte) int {
	if len(key) < 8 || indexBrace(key) >= 0 {
		s.ok, s.quick = false, -1
		return Slot(key)
	}
	s.prev = append(s.prev[:0], key...)
	s.crc, s.ok, s.quick = crc16(key), true, -1
	if len(key) >= 9 && len(key) <= 16 {
		s.quick = len(key)
	}
	return int(s.crc & (Slots - 1))
}

// sameHead reports whether the first n bytes of a and b are equal, where both have n+8
// bytes. Up to 8 bytes (the heads of generated keys) it compares one word, masked: a call of
// the runtime's comparison cost more than the rest of slot.
func sameHead(a, b []byte, n int) bool {
	if n <= 8 {
		return (binary.LittleEndian.Uint64(a)^binary.LittleEndian.Uint64(b))<<(64-8*n) == 0
	}
	return string(a[:n]) == string(b[:n])
}
