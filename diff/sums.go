package diff

// sums is the first read's view of one dump: per bucket of key hashes (the top sumBits
// bits), the sum of a 128-bit hash of each key's entry (two 64-bit sums, each modulo 2⁶⁴,
// side by side: one cache line a key), and the keys per database. A sum does not depend on
// the order of the keys, so two dumps holding the same data have the same sums whatever
// their key orders; only the buckets whose sums differ are read again, key by key.
// Memory: 64 KiB a dump, which stays in the processor's cache.
type sums struct {
	sum   [][2]uint64
	perDB map[uint32]uint64
	keys  uint64
	db    uint32 // the db of the keys counted in n
	n     uint64
}

const sumBits = 12

func newSums() *sums {
	return &sums{sum: make([][2]uint64, 1<<sumBits), perDB: map[uint32]uint64{}}
}

// add adds the entry e of one key, of what opts compares.
func (s *sums) add(e *entry, opts Options) {
	if e.DB != s.db {
		s.done()
		s.db = e.DB
	}
	s.n++
	lo, hi := entryHash(e, opts)
	b := &s.sum[e.Key>>(64-sumBits)]
	b[0] += lo
	b[1] += hi
}

// done folds the keys counted into perDB.
func (s *sums) done() {
	if s.n > 0 {
		s.perDB[s.db] += s.n
		s.keys += s.n
		s.n = 0
	}
}

// entryHash is the 128-bit hash of what opts compares of e (see differs): its key hash
// and type; its value unless KeysOnly; its expiry and field TTLs, when set, unless
// KeysOnly or IgnoreTTL. The two halves are chained from different starts over the same
// words.
func entryHash(e *entry, opts Options) (lo, hi uint64) {
	t := uint64(e.Type) << 56
	lo, hi = chain(0x243f6a8885a308d3^t, e.Key), chain(0x13198a2e03707344^t, e.Key)
	if opts.KeysOnly {
		return lo, hi
	}
	lo, hi = chain(lo, e.Value), chain(hi, e.Value)
	if opts.IgnoreTTL {
		return lo, hi
	}
	if e.Expiry != 0 {
		lo, hi = chain(lo^1, uint64(e.Expiry)), chain(hi^1, uint64(e.Expiry))
	}
	if e.FieldTTLs != 0 {
		lo, hi = chain(lo^2, e.FieldTTLs), chain(hi^2, e.FieldTTLs)
	}
	return lo, hi
}

// differing returns the buckets whose sums differ between x and y, as a set of bucket
// numbers, and how many.
func differing(x, y *sums) ([]bool, int) {
	set := make([]bool, 1<<sumBits)
	n := 0
	for b := range set {
		if x.sum[b] != y.sum[b] {
			set[b] = true
			n++
		}
	}
	return set, n
}
