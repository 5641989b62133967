package verify

import "hash/maphash"

// Redis refuses a file that holds a key twice in one database, or a member twice in one set,
// hash or sorted set. The offline stage finds both exactly in two steps:
//
//  1. As the file is read, each key (and each member of the open collection) is reduced to a
//     64-bit hash and looked up in a fingerprintSet: an open-addressing table of 32-bit
//     fingerprints in buckets of 16 (one cache line), at most 3/4 full, whose bucket comes
//     from the other 32 bits. A key seen
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
	size := (n + n/3 + bucket) / bucket * bucket
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
		size := 2 * len(s.tables[last]) // a multiple of bucket
		s.tables = append(s.tables, make([]uint32, size))
		s.n, s.max = 0, size*3/4
	}
	return false
}

// bucket is the number of fingerprints in a bucket: a 64-byte cache line.
const bucket = 16

// probe looks fp up in t from the bucket hi picks, on to the next buckets while they are
// full, and inserts it when insert is set. Slots fill in order and are never emptied, so the
// first empty slot ends the search.
func probe(t []uint32, hi uint64, fp uint32, insert bool) bool {
	nb := uint64(len(t) / bucket)
	i := int(hi*nb>>32) * bucket
	for {
		for _, v := range t[i : i+bucket] {
			if v == fp {
				return true
			}
			if v == 0 {
				if insert {
					for k := i; ; k++ {
						if t[k] == 0 {
							t[k] = fp
							break
						}
					}
				}
				return false
			}
		}
		if i += bucket; i == len(t) {
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

// touch reads the first slot of each bucket h would probe, so that a batch of lookups waits
// for memory once, in parallel, rather than once per key.
func (s *fingerprintSet) touch(h uint64) uint32 {
	var v uint32
	hi := h >> 32
	for _, t := range s.tables {
		v += t[int(hi*uint64(len(t)/bucket)>>32)*bucket]
	}
	return v
}

// batchSize is how many keys (members) are looked up together.
const batchSize = 128

// A pending is a key or member waiting in a batch: its hash, position and bytes.
type pending struct {
	h, rec, index uint64
	db            int
	from, to      int
}

// A batch holds lookups until there are batchSize of them.
type batch struct {
	items []pending
	bytes []byte
}

func (b *batch) add(h uint64, db int, s []byte, rec, index uint64) bool {
	from := len(b.bytes)
	b.bytes = append(b.bytes, s...)
	b.items = append(b.items, pending{h: h, rec: rec, index: index, db: db, from: from, to: len(b.bytes)})
	return len(b.items) == batchSize
}

// dupFinder runs step 1 of the duplicate check.
type dupFinder struct {
	seed       maphash.Seed
	keys       fingerprintSet
	members    fingerprintSet
	candidates []dupCandidate
	maxCands   int
	keyBatch   batch
	memBatch   batch
	memKey     []byte // the key of the open collection
	sink       uint32
}

func newDupFinder() *dupFinder {
	return &dupFinder{seed: maphash.MakeSeed(), maxCands: 1 << 20}
}

// beginDB starts the keys of a database of about n keys.
func (d *dupFinder) beginDB(n uint64) {
	d.flush()
	d.keys.reset(int(min(n, 1<<26)))
}

// key checks the key of record rec, in a batch.
func (d *dupFinder) key(db int, key []byte, rec uint64) {
	if d.keyBatch.add(maphash.Bytes(d.seed, key), db, key, rec, 0) {
		d.flushKeys()
	}
}

// beginMembers starts the members of the collection key, of n members.
func (d *dupFinder) beginMembers(key []byte, n uint64) {
	d.flushMembers()
	d.memKey = append(d.memKey[:0], key...)
	d.members.reset(int(min(n, 1<<24)))
}

// member checks member i of the open collection, the record rec, in a batch.
func (d *dupFinder) member(db int, member []byte, rec, i uint64) {
	if d.memBatch.add(maphash.Bytes(d.seed, member), db, member, rec, i) {
		d.flushMembers()
	}
}

// flush looks up the batches.
func (d *dupFinder) flush() {
	d.flushKeys()
	d.flushMembers()
}

func (d *dupFinder) flushKeys() {
	d.lookup(&d.keyBatch, &d.keys, func(p pending, s string) dupCandidate {
		return dupCandidate{db: p.db, key: s, record: p.rec}
	})
}

func (d *dupFinder) flushMembers() {
	d.lookup(&d.memBatch, &d.members, func(p pending, s string) dupCandidate {
		return dupCandidate{db: p.db, key: string(d.memKey), record: p.rec, member: s, index: p.index, isMem: true}
	})
}

// lookup adds the batch b to set, first touching every bucket it will probe so that the
// waits for memory overlap, and keeps the candidates.
func (d *dupFinder) lookup(b *batch, set *fingerprintSet, cand func(p pending, s string) dupCandidate) {
	for _, p := range b.items {
		d.sink += set.touch(p.h)
	}
	for _, p := range b.items {
		if set.add(p.h) && len(d.candidates) < d.maxCands {
			d.candidates = append(d.candidates, cand(p, string(b.bytes[p.from:p.to])))
		}
	}
	b.items, b.bytes = b.items[:0], b.bytes[:0]
}
