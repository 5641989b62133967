package decoder

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"

	"github.com/rdbgen/rdbgen/record"
)

// Repeats. Redis aborts loading a file that holds a key twice in one database, and refuses a
// set, hash or sorted set that holds a member twice (7.2 loads such a set and holds the
// member twice). With Options.OnDuplicate the reader applies the rules of rdbgen's importer:
// a repeated key is an error, or the first or last record of it is kept; a repeated member
// is always an error naming the key and the member.

// Repeats are errors wrapping record.ErrDuplicateKey and record.ErrDuplicateMember.

// hashSet holds 64-bit hashes in an open-addressing table that grows with what is added
// (never with a count the file claims): the members of a large collection, whose repeats
// are taken by their hash (two distinct members share one with odds of n²/2⁶⁵ among n), the
// keys of a partition of a hashLog, and the keys of a source read once under
// record.DupError.
type hashSet struct {
	tab []uint64 // 0 is an empty slot
	n   int
}

// reset empties the set; a large table is not kept.
func (m *hashSet) reset() {
	if len(m.tab) != 16 {
		m.tab = make([]uint64, 16)
	} else if m.n > 0 {
		clear(m.tab)
	}
	m.n = 0
}

// sized empties the set and makes room for n hashes without growing.
func (m *hashSet) sized(n int) {
	size := 16
	for size*3 < n*4 {
		size *= 2
	}
	if len(m.tab) == size {
		clear(m.tab)
	} else {
		m.tab = make([]uint64, size)
	}
	m.n = 0
}

// add adds h and reports whether it was there already.
func (m *hashSet) add(h uint64) bool {
	if m.insert(h | 1) {
		return true
	}
	m.n++
	if m.n*4 > len(m.tab)*3 {
		old := m.tab
		m.tab = make([]uint64, 2*len(old))
		for _, v := range old {
			if v != 0 {
				m.insert(v)
			}
		}
	}
	return false
}

// insert puts h (not 0) in the table unless it is there, and reports whether it was.
func (m *hashSet) insert(h uint64) bool { return m.probe(h, true) }

// has reports whether h is in the set.
func (m *hashSet) has(h uint64) bool { return m.probe(h|1, false) }

// probe looks h up from its slot on, and puts it in the first empty slot when insert is set.
func (m *hashSet) probe(h uint64, insert bool) bool {
	mask := uint64(len(m.tab) - 1)
	for i := (h >> 1) & mask; ; i = (i + 1) & mask {
		switch m.tab[i] {
		case h:
			return true
		case 0:
			if insert {
				m.tab[i] = h
			}
			return false
		}
	}
}

// keyMask is and-ed with every key's hash and every logged member's: the tests make them
// share hashes with it.
var keyMask = ^uint64(0)

// A hashSeed seeds the hashes of one reading: keyHash's and memberHash's.
type hashSeed struct {
	ms         maphash.Seed
	a, b, c, d uint64
}

func newSeed() hashSeed {
	return hashSeed{maphash.MakeSeed(), rand.Uint64(), rand.Uint64(), rand.Uint64(), rand.Uint64()}
}

// keyHash is the hash of db's key. A key of up to 16 bytes, as most are, is hashed inline
// as wyhash hashes one (its first and last words, multiplied 64 by 64 bits into 128 and
// folded, twice): a few nanoseconds where maphash takes more. A longer one goes through
// maphash. Keys of different lengths never match, so the two kinds never need to agree.
func keyHash(s *hashSeed, db int, key []byte) uint64 {
	return seededHash(s, uint64(db), key) & keyMask
}

// memberHash is the hash of a member of a collection (keyHash's, without the db and mask).
func memberHash(s *hashSeed, member []byte) uint64 { return seededHash(s, 0, member) }

// seededHash hashes key with x (keyHash's db).
func seededHash(s *hashSeed, x uint64, key []byte) uint64 {
	var a, b uint64
	switch n := len(key); {
	case n > 16:
		return maphash.Bytes(s.ms, key) ^ x*0x9e3779b97f4a7c15
	case n >= 8:
		a, b = binary.LittleEndian.Uint64(key), binary.LittleEndian.Uint64(key[n-8:])
	case n >= 4:
		a, b = uint64(binary.LittleEndian.Uint32(key)), uint64(binary.LittleEndian.Uint32(key[n-4:]))
	case n > 0:
		a = uint64(key[0])<<16 | uint64(key[n>>1])<<8 | uint64(key[n-1])
	}
	return mum(mum(a^s.a, b^s.b)^s.c^uint64(len(key)), x^s.d)
}

// mum multiplies a by b and folds the 128 bits of the product into 64.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// memberSet holds the members of the open collection: the first smallMembers as bytes,
// compared one by one (cheaper than hashing for the small collections most are), then as
// hashes in a hashSet, then, past loggedMembers, as hashes in a hashLog checked at the
// collection's end (dups_members.go).
type memberSet struct {
	rec  int64  // the offset of the collection's record: a set is emptied for the next
	buf  []byte // the first members, end to end
	ends []int  // where each ends in buf
	big  bool   // past smallMembers: hashes
	set  hashSet
	log  *hashLog // past loggedMembers: the hashes of all (see dups_members.go)
	// spare is the last log, closed: the next takes its buffers.
	spare *hashLog
}

// smallMembers is the number of members compared as bytes.
const smallMembers = 8

// reset empties the set for the next collection; a large buffer is not kept.
func (m *memberSet) reset() {
	m.closeLog()
	if cap(m.buf) > 4<<10 {
		m.buf = nil
	}
	m.buf, m.ends, m.big = m.buf[:0], m.ends[:0], false
}

// add adds member and reports whether it was there already.
func (m *memberSet) add(seed *hashSeed, member []byte) bool {
	if m.log != nil {
		m.log.add(memberHash(seed, member)&keyMask | 1)
		return false
	}
	if !m.big {
		from := 0
		for _, end := range m.ends {
			if bytes.Equal(m.buf[from:end], member) {
				return true
			}
			from = end
		}
		if len(m.ends) < smallMembers {
			m.buf = append(m.buf, member...)
			m.ends = append(m.ends, len(m.buf))
			return false
		}
		m.big, from = true, 0
		m.set.reset()
		for _, end := range m.ends {
			m.set.add(memberHash(seed, m.buf[from:end]))
			from = end
		}
	}
	if m.set.add(memberHash(seed, member)) {
		return true
	}
	if m.set.n >= loggedMembers {
		m.startLog()
	}
	return false
}

// checkMember fails when member was read before in the open collection of type t (a plain
// type: 2 set, 3 or 5 zset, 4 hash); lists may repeat. Up to loggedMembers members, a
// repeat is found as it comes: exactly among the first 8, by a match of 64-bit hashes past
// them (two distinct members share one with odds of n²/2⁶⁵ among n). Past loggedMembers,
// the hashes are logged and checked at the collection's end, before End
// (endCollection): a repeat is confirmed by reading the collection again when the source
// can be read at an offset, so the error names the member; from a source read once, the
// error names the 64-bit hash that two members share.
func (rd *Reader) checkMember(t byte, member []byte) error {
	if rd.opts.OnDuplicate == "" || t == 1 {
		return nil
	}
	if rd.members.rec != rd.recStart {
		rd.members.reset()
		rd.members.rec = rd.recStart
	}
	if !rd.members.add(&rd.seed, member) {
		return nil
	}
	return memberError(t, member)
}

// memberError is the error of member, read twice in a collection of type t.
func memberError(t byte, member []byte) error {
	what := "member"
	if t == 4 {
		what = "field"
	}
	return fmt.Errorf("%w: %s %q: Redis refuses the file (7.2 loads it and holds the %s twice); repair the source",
		record.ErrDuplicateMember, what, member, what)
}

// How keys are checked. A key is remembered once its record was passed on: an empty
// collection, which Redis skips, is no first record.
//
//   - A File under record.DupFirst or DupLast (or DupError with Options.CheckKeysFirst)
//     reads the file once before (repeatedKeys): the keys that repeat, usually none, are
//     known with the offset of the record to keep before any record is passed on (rd.dups).
//   - Under DupError from a source that can be read again (a file), no key repeats while
//     each db's keys come in increasing order (dups_order.go). From the first key out of
//     order, each key's hash goes to a hashLog as the file is read, and once it is read,
//     before WriteTo returns, the hashes of the keys before that one are logged too and the
//     hashes that repeat are confirmed by reading the file again (checkLog).
//   - Under DupError from a source read once, the hashes are kept in a hashSet (8 to 16
//     bytes a key) and a match is reported as it comes, as a match of hashes.

// keep decides, the key of the record at rd.recStart in db read, whether the record is
// passed on under Options.OnDuplicate.
func (rd *Reader) keep(db int) (bool, error) {
	switch {
	case rd.opts.OnDuplicate == "" || rd.order != nil:
		return true, nil
	case rd.checked:
		if len(rd.dups) == 0 {
			return true, nil
		}
		d := rd.dups.get(db, rd.key, &rd.scratch)
		switch {
		case d == nil:
			return true, nil
		case rd.opts.OnDuplicate == record.DupLast:
			return rd.recStart == d.last, nil
		}
		return rd.recStart == d.first, nil
	}
	if !rd.keyHashes.has(keyHash(&rd.seed, db, rd.key)) {
		return true, nil
	}
	return false, fmt.Errorf("%w in db %d (its 64-bit hash matches an earlier key's; the input cannot be read again to compare): keep the first with --on-duplicate first, or the last with --on-duplicate last",
		record.ErrDuplicateKey, db)
}

// seen remembers the key of the record just passed on.
func (rd *Reader) seen(db int) {
	switch {
	case rd.log != nil:
		rd.log.add(keyHash(&rd.seed, db, rd.key))
	case rd.order != nil:
		spare, ok := rd.order.next(db, rd.key)
		if ok {
			rd.key = spare
			return
		}
		rd.order.broken = rd.recStart
		rd.log = newHashLog("keys", nil)
		rd.log.add(keyHash(&rd.seed, db, rd.key))
	case rd.opts.OnDuplicate == record.DupError && !rd.checked:
		rd.keyHashes.add(keyHash(&rd.seed, db, rd.key))
	}
}
