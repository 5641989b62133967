package cluster

import "encoding/binary"

// A slotter returns the slots of a stream of keys, faster than Slot when a key differs from
// the one before it in its last 8 bytes alone, as the numbered keys of a generated dataset
// do. CRC16 with initial value 0 is linear, so for keys of one length CRC16(key) =
// CRC16(previous key) ⊕ CRC16(their xor), and leading zero bytes add nothing: the xor of the
// last 8 bytes costs the 8 lookups of one sliced step, and two lookups when only the last
// two bytes changed, where a 12-byte key hashed whole costs 12 and a search for '{'. Any
// other key is hashed whole.
type slotter struct {
	prev []byte // the previous key, but for its last two bytes when quick is set: a and b
	crc  uint16 // its CRC16
	ok   bool   // it has 8 bytes or more, and no '{' but perhaps in its last two bytes: crc is its slot's
	// quick is len(prev) when ok and it has 10 to 18 bytes, else -1: a key as long may take
	// last, which compares it with head and mid, the words of prev[:8] and
	// prev[quick-10:quick-2], and keeps its last two bytes in a and b.
	quick     int
	head, mid uint64
	a, b      byte
}

// newSlotter returns a slotter with no previous key.
func newSlotter() slotter { return slotter{quick: -1} }

// slot returns the hash slot of key, as Slot does.
func (s *slotter) slot(key []byte) int {
	if crc := s.last(key); crc >= 0 {
		return crc & (Slots - 1)
	}
	return s.next(key)
}

// last is slot's quick path, small enough to be inlined: a key of 10 to 18 bytes whose last
// two bytes alone differ from the previous key's (99 keys in 100 that count up) costs two
// words compared and two lookups. It returns the key's CRC16, whose low 14 bits are its
// slot, or -1 for any other key. It loads the last two bytes one by one, so that it waits
// for no wider store of a key just counted up byte by byte. A '{' there opens no hash tag:
// a tag needs a '}' after it, and something between.
func (s *slotter) last(key []byte) int {
	n := len(key)
	if n != s.quick || binary.LittleEndian.Uint64(key) != s.head || binary.LittleEndian.Uint64(key[n-10:]) != s.mid {
		return -1
	}
	a, b := key[n-2], key[n-1]
	s.crc ^= crc16Tables[1][a^s.a] ^ crc16Tables[0][b^s.b]
	s.a, s.b = a, b
	return int(s.crc)
}

// next is slot beyond its quick path: a key that differs from the previous one in its last
// 8 bytes alone costs the 8 lookups of one sliced step.
func (s *slotter) next(key []byte) int {
	prev := s.prev
	if s.quick >= 0 { // last kept the last two bytes
		prev[len(prev)-2], prev[len(prev)-1] = s.a, s.b
	}
	if s.ok && len(key) == len(prev) {
		n := len(key) - 8
		tail := binary.LittleEndian.Uint64(key[n:])
		if !hasBrace(tail) && sameHead(key, prev, n) {
			d, t := tail^binary.LittleEndian.Uint64(prev[n:]), &crc16Tables
			s.crc ^= t[7][byte(d)] ^ t[6][byte(d>>8)] ^ t[5][byte(d>>16)] ^ t[4][byte(d>>24)] ^
				t[3][byte(d>>32)] ^ t[2][byte(d>>40)] ^ t[1][byte(d>>48)] ^ t[0][byte(d>>56)]
			binary.LittleEndian.PutUint64(prev[n:], tail)
			s.keep(prev)
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
	s.crc, s.ok = crc16(key), true
	s.keep(s.prev)
	return int(s.crc & (Slots - 1))
}

// keep sets up last for prev, the key just hashed, when it has 10 to 18 bytes.
func (s *slotter) keep(prev []byte) {
	n := len(prev)
	if n < 10 || n > 18 {
		s.quick = -1
		return
	}
	s.quick, s.head, s.mid = n, binary.LittleEndian.Uint64(prev), binary.LittleEndian.Uint64(prev[n-10:])
	s.a, s.b = prev[n-2], prev[n-1]
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
