package record

import "hash/maphash"

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
// bytes: about 40 bytes a key whatever its length, and two distinct keys share a hash with
// odds of n²/2¹²⁹ among n keys. The zero value is not usable: use NewKeySet.
type KeySet struct {
	seeds [2]maphash.Seed
	m     map[[2]uint64]int64
}

// NewKeySet returns an empty KeySet.
func NewKeySet() *KeySet {
	return &KeySet{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, m: map[[2]uint64]int64{}}
}

func (s *KeySet) hash(db int, key []byte) [2]uint64 {
	mix := uint64(db) * 0x9e3779b97f4a7c15
	return [2]uint64{maphash.Bytes(s.seeds[0], key) ^ mix, maphash.Bytes(s.seeds[1], key) + mix}
}

// Get returns the number kept with db's key, and whether the key is there.
func (s *KeySet) Get(db int, key []byte) (int64, bool) {
	n, ok := s.m[s.hash(db, key)]
	return n, ok
}

// Put keeps db's key with the number n, replacing the number it had.
func (s *KeySet) Put(db int, key []byte, n int64) { s.m[s.hash(db, key)] = n }

// Add keeps db's key with the number n unless it is there already, and then returns the
// number it has and true.
func (s *KeySet) Add(db int, key []byte, n int64) (first int64, dup bool) {
	h := s.hash(db, key)
	if first, dup := s.m[h]; dup {
		return first, true
	}
	s.m[h] = n
	return n, false
}

// Len returns the number of keys.
func (s *KeySet) Len() int { return len(s.m) }
