package diff

import (
	"hash/maphash"
	"math"

	"github.com/rdbgen/rdbgen/record"
)

// An entry is the fingerprint of one key: the hash of its db and name (Key), the hash of
// its canonical value (Value: a string's bytes; a list's elements in order; a set's, hash's
// or sorted set's members in any order, as the sum of their hashes; a stream's entries and
// the part of its groups every RDB version holds), its expiry, the hash of its hash-field
// expiries, its db and type. Key and Value make the 128-bit fingerprint the issue asks for.
type entry struct {
	Key, Value uint64
	Expiry     int64
	FieldTTLs  uint64
	DB         uint32
	Type       byte
}

// entrySize is the size of an entry in a run.
const entrySize = 8 + 8 + 8 + 8 + 4 + 1

// typeCodes are the types by their number in entries (0: none).
var typeCodes = [...]record.Type{1: record.String, 2: record.List, 3: record.Set, 4: record.ZSet, 5: record.Hash, 6: record.Stream, 7: record.Module}

// typeCode returns the number of t in entries.
func typeCode(t record.Type) byte {
	if t == record.String { // the most common, first
		return 1
	}
	for i, v := range typeCodes {
		if v == t && i > 0 {
			return byte(i)
		}
	}
	return 0
}

// typeOf returns the type numbered c.
func typeOf(c byte) record.Type {
	if int(c) < len(typeCodes) {
		return typeCodes[c]
	}
	return ""
}

// seed is the seed of every hash of one process: both dumps of a comparison hash alike.
var seed = maphash.MakeSeed()

// mix is splitmix64's finalizer: it spreads the bits of x.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// hb hashes b.
func hb(b []byte) uint64 { return maphash.Bytes(seed, b) }

// chain adds h to the running order-dependent hash acc.
func chain(acc, h uint64) uint64 { return mix(acc*0x9e3779b97f4a7c15 + h) }

// keyHash is the hash of a key in its db.
func keyHash(db int, key []byte) uint64 { return chain(uint64(db)+1, hb(key)) }

// idHash hashes a stream id.
func idHash(id record.StreamID) uint64 { return chain(mix(id.Ms), id.Seq) }

// A fingerprinter is a record.Sink that turns each key into an entry and hands it to emit,
// with the key's name (valid during the call only). Function libraries go to funcs, module
// AUX data to aux (each dropped when nil). A module value's Value is the hash of its module
// type id (name and encoding version) and its serialized bytes: without the module, the
// bytes are all there is to compare.
type fingerprinter struct {
	emit  func(e *entry, key []byte) error
	funcs func(code []byte) error
	aux   func(a *record.ModuleAux) error
	// wants, if set, is asked at each key's Begin with its key hash: keys it refuses are
	// not fingerprinted (a second read looks for a few keys only).
	wants func(kh uint64) bool
	// keysOnly leaves values out: Value stays 0.
	keysOnly bool

	db   int
	cur  entry
	key  []byte
	typ  record.Type
	n    uint64 // members added
	skip bool
}

func (f *fingerprinter) BeginDB(db int, _ record.Counts) error { f.db = db; return nil }

func (f *fingerprinter) Begin(h *record.Header) error {
	kh := keyHash(f.db, h.Key)
	f.skip = f.wants != nil && !f.wants(kh)
	if f.skip {
		return nil
	}
	f.cur = entry{Key: kh, Expiry: h.ExpireAtMS, DB: uint32(f.db), Type: typeCode(h.Type)}
	switch h.Type {
	case record.String:
		if !f.keysOnly {
			f.cur.Value = hb(h.Value)
		}
		return f.emit(&f.cur, h.Key)
	case record.Module:
		if !f.keysOnly {
			f.cur.Value = chain(mix(h.ModuleID), hb(h.Value))
		}
		return f.emit(&f.cur, h.Key)
	}
	f.key, f.n, f.typ = append(f.key[:0], h.Key...), 0, h.Type
	return nil
}

func (f *fingerprinter) Add(m *record.Member) error {
	if f.skip || f.keysOnly {
		return nil
	}
	f.n++
	switch f.typ {
	case record.List:
		f.cur.Value = chain(f.cur.Value, hb(m.Name))
	case record.Set:
		f.cur.Value += mix(hb(m.Name))
	case record.ZSet:
		s := m.Score
		if s == 0 {
			s = 0 // -0 and 0 alike, as a ziplist's "0" reads
		}
		f.cur.Value += chain(hb(m.Name), math.Float64bits(s))
	case record.Hash:
		hn := hb(m.Name)
		f.cur.Value += chain(hn, hb(m.Value))
		if m.ExpireAtMS != 0 {
			f.cur.FieldTTLs += chain(hn, uint64(m.ExpireAtMS))
		}
	case record.Stream:
		v := chain(f.cur.Value, idHash(m.ID))
		for _, fl := range m.Fields {
			v = chain(v, hb(fl))
		}
		f.cur.Value = chain(v, uint64(len(m.Fields)))
	}
	return nil
}

// End ends the key. Of a stream's tail it takes what every RDB version holds: the last id,
// and per group its name, last delivered id, pending entries (id, delivery time and count)
// and consumers (name, the ids they own); not the RDB 10+ fields (first id, max deleted
// id, entries added and read) nor the consumers' seen and active times, which a conversion
// to an older version cannot keep.
func (f *fingerprinter) End(t *record.StreamTail) error {
	if f.skip {
		return nil
	}
	if f.keysOnly {
		return f.emit(&f.cur, f.key)
	}
	f.cur.Value = chain(f.cur.Value, f.n)
	if t != nil {
		v := chain(f.cur.Value, idHash(t.Meta.LastID))
		for _, g := range t.Groups {
			v = chain(v, hb(g.Name))
			v = chain(v, idHash(g.LastID))
			for _, p := range g.Pending {
				v = chain(chain(chain(v, idHash(p.ID)), uint64(p.DeliveryTimeMS)), p.DeliveryCount)
			}
			for _, c := range g.Consumers {
				v = chain(v, hb(c.Name))
				for _, id := range c.Pending {
					v = chain(v, idHash(id))
				}
			}
		}
		f.cur.Value = v
	}
	return f.emit(&f.cur, f.key)
}

func (f *fingerprinter) WriteFunction(code []byte) error {
	if f.funcs == nil {
		return nil
	}
	return f.funcs(code)
}

func (f *fingerprinter) WriteModuleAux(a *record.ModuleAux) error {
	if f.aux == nil {
		return nil
	}
	return f.aux(a)
}
