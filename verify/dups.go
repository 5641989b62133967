package verify

import "hash/maphash"

// Redis refuses a file that holds a key twice in one database, or a member twice in one set,
// hash or sorted set. The offline stage finds both exactly in two steps:
//
//  1. As the file is read, each key (and each member of the open collection) is reduced to a
//     64-bit hash and looked up in a fingerprintSet: an open-addressing table of 32-bit
//     fingerprints, at most 3/4 full, whose slot comes from the other 32 bits. A key seen
//     before always matches; a new key matches only if another key with the same
//     fingerprint sits in its probe run, about once in a billion keys. A match is a
//     candidate, kept with its key (and member) bytes and its position.
//  2. Only if there are candidates, the file is read again up to the last one, and each
//     candidate is confirmed exactly by comparing bytes with the keys (members) before it.
//
// The table costs 4 bytes a slot, 5.3 bytes per key of the largest database (sized from
// its RESIZEDB count, 1.5 times that when it grows) and per member of the largest
// collection; it is freed with its database or collection.

// fingerprintSet is a set of 64-bit hashes kept as 32-bit fingerprints. It grows by adding
// tables (a fingerprint does not keep its slot bits), each twice the last.
type fingerprintSet struct {
	tables [][]uint32
	n, max int // entries in the newest table, and its limit
}

// reset empties the set and sizes it for about n entries, reusing its newest table.
func (s *fingerprintSet) reset(n int) {
	n = max(n, 64)
	size := n + n/3 + 1
	var t []uint32
	if len(s.tables) > 0 {
		t = s.tables[len(s.tables)-1]
	}
	if cap(t) >= size && cap(t) <= 4*size {
		t = t[:size]
		clear(t)
	} else {
		t = make([]uint32, size)
	}
	s.tables = append(s.tables[:0], t)
	s.n, s.max = 0, n
}

// add adds h and reports whether a matching fingerprint was there already.
func (s *fingerprintSet) add(h uint64) bool {
	fp := uint32(h)
	if fp == 0 {
		fp = 1
	}
	hi := h >> 32
	last := len(s.tables) - 1
	for _, t := range s.tables[:last] {
		if probe(t, hi, fp, false) {
			return true
		}
	}
	if probe(s.tables[last], hi, fp, true) {
		return true
	}
	s.n++
	if s.n >= s.max {
		size := 2 * len(s.tables[last])
		s.tables = append(s.tables, make([]uint32, size))
		s.n, s.max = 0, size*3/4
	}
	return false
}

// probe looks fp up in t from the slot hi picks, and inserts it when insert is set.
func probe(t []uint32, hi uint64, fp uint32, insert bool) bool {
	i := int(hi * uint64(len(t)) >> 32)
	for {
		switch t[i] {
		case fp:
			return true
		case 0:
			if insert {
				t[i] = fp
			}
			return false
		}
		if i++; i == len(t) {
			i = 0
		}
	}
}

// A dupCandidate is a key, or a member of a key, whose fingerprint matched an earlier one.
type dupCandidate struct {
	db     int
	key    string
	record uint64 // index of the record in the file
	member string // empty for a key
	index  uint64 // index of the member in its record
	isMem  bool
}

// dupFinder runs step 1 of the duplicate check.
type dupFinder struct {
	seed       maphash.Seed
	keys       fingerprintSet
	members    fingerprintSet
	candidates []dupCandidate
	maxCands   int
}

func newDupFinder() *dupFinder {
	return &dupFinder{seed: maphash.MakeSeed(), maxCands: 1 << 20}
}

// beginDB starts the keys of a database of about n keys.
func (d *dupFinder) beginDB(n uint64) { d.keys.reset(int(min(n, 1<<26))) }

// key checks the key of record rec.
func (d *dupFinder) key(db int, key []byte, rec uint64) {
	if d.keys.add(maphash.Bytes(d.seed, key)) && len(d.candidates) < d.maxCands {
		d.candidates = append(d.candidates, dupCandidate{db: db, key: string(key), record: rec})
	}
}

// beginMembers starts the members of a collection of n members.
func (d *dupFinder) beginMembers(n uint64) { d.members.reset(int(min(n, 1<<20))) }

// member checks member i of the open collection, the record rec.
func (d *dupFinder) member(db int, key, member []byte, rec, i uint64) {
	if d.members.add(maphash.Bytes(d.seed, member)) && len(d.candidates) < d.maxCands {
		d.candidates = append(d.candidates, dupCandidate{db: db, key: string(key), record: rec, member: string(member), index: i, isMem: true})
	}
}
