package record

import (
	"errors"
	"hash/maphash"
)

// Errors of the duplicate checks every writer and reader of records makes, for errors.Is.
var (
	// ErrDuplicateKey reports a key that comes again in the same database.
	ErrDuplicateKey = errors.New("record: duplicate key")
	// ErrDuplicateMember reports a set, sorted-set or hash member that comes again in its key.
	ErrDuplicateMember = errors.New("record: duplicate member")
)

// OnDuplicate says what a reader of records (an import, a dump) does with a key that comes
// again in the same database.
type OnDuplicate string

// The choices for OnDuplicate.
const (
	// DupError fails, naming the key and where it came first.
	DupError OnDuplicate = "error"
	// DupFirst keeps the first record of the key and drops the later ones.
	DupFirst OnDuplicate = "first"
	// DupLast keeps the last record of the key. Since the first was passed on before the
	// next turns up, the input is read twice: once to find the last record of every key,
	// once to pass it on.
	DupLast OnDuplicate = "last"
)

// Valid reports whether d is one of the choices.
func (d OnDuplicate) Valid() bool { return d == DupError || d == DupFirst || d == DupLast }

// A KeySet remembers keys by database, each with a number (the place of its record: a line,
// a byte offset). A key is kept as a 128-bit hash of its database and bytes, not as the
// bytes, in an open-addressing table of 24-byte slots at most 3/4 full: 32 to 64 bytes a
// key whatever its length, and two distinct keys share a hash with odds of n²/2¹²⁸ among n
// keys. The zero value is not usable: use NewKeySet.
type KeySet struct {
	seeds [2]maphash.Seed
	tab   []keySlot
	n     int
}

// keySlot is a key's hash (h0 is odd: 0 marks an empty slot) and number.
type keySlot struct {
	h0, h1 uint64
	n      int64
}

// NewKeySet returns an empty KeySet.
func NewKeySet() *KeySet {
	return &KeySet{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, tab: make([]keySlot, 64)}
}

func (s *KeySet) hash(db int, key []byte) (uint64, uint64) {
	mix := uint64(db) * 0x9e3779b97f4a7c15
	return (maphash.Bytes(s.seeds[0], key) ^ mix) | 1, maphash.Bytes(s.seeds[1], key) + mix
}

// slot returns the slot of the hash h0, h1: its own, or the empty one it would take.
func (s *KeySet) slot(h0, h1 uint64) *keySlot {
	mask := uint64(len(s.tab) - 1)
	for i := (h0 >> 1) & mask; ; i = (i + 1) & mask {
		if sl := &s.tab[i]; sl.h0 == 0 || (sl.h0 == h0 && sl.h1 == h1) {
			return sl
		}
	}
}

// Get returns the number kept with db's key, and whether the key is there.
func (s *KeySet) Get(db int, key []byte) (int64, bool) {
	sl := s.slot(s.hash(db, key))
	return sl.n, sl.h0 != 0
}

// Put keeps db's key with the number n, replacing the number it had.
func (s *KeySet) Put(db int, key []byte, n int64) {
	h0, h1 := s.hash(db, key)
	sl := s.slot(h0, h1)
	if sl.h0 == 0 {
		s.insert(h0, h1, n)
		return
	}
	sl.n = n
}

// Add keeps db's key with the number n unless it is there already, and then returns the
// number it has and true.
func (s *KeySet) Add(db int, key []byte, n int64) (first int64, dup bool) {
	h0, h1 := s.hash(db, key)
	if sl := s.slot(h0, h1); sl.h0 != 0 {
		return sl.n, true
	}
	s.insert(h0, h1, n)
	return n, false
}

// insert adds a hash that is not there, growing the table first when it is 3/4 full.
func (s *KeySet) insert(h0, h1 uint64, n int64) {
	if (s.n+1)*4 > len(s.tab)*3 {
		old := s.tab
		s.tab = make([]keySlot, 2*len(old))
		for _, sl := range old {
			if sl.h0 != 0 {
				*s.slot(sl.h0, sl.h1) = sl
			}
		}
	}
	*s.slot(h0, h1) = keySlot{h0, h1, n}
	s.n++
}

// Len returns the number of keys.
func (s *KeySet) Len() int { return s.n }
