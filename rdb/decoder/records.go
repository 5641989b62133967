package decoder

import (
	"cmp"
	"fmt"
	"math"
	"strconv"

	"github.com/rdbgen/rdbgen/record"
)

// readRecord reads the key and value of a record of type t in db and writes it to sink, or
// leaves it out under Options.OnDuplicate. Errors of the file are *Error naming the key; the
// sink's errors come back as they are.
func (rd *Reader) readRecord(t byte, expire int64, db int, sink record.Sink) error {
	in := rd.in
	var err error
	if rd.key, err = in.str(rd.key, &rd.lzf); err != nil {
		return rd.fail(err, nil)
	}
	keep, err := rd.keep(db)
	if err != nil {
		return rd.fail(err, rd.key)
	}
	keys := rd.stats.Keys
	var before Stats // a record left out is not counted: the counts before it
	if !keep {
		before, sink = rd.stats, record.Discard{}
	}
	if err := rd.readValue(t, expire, sink); err != nil {
		return rd.fail(err, rd.key)
	}
	passed := rd.stats.Keys > keys // an empty collection is not passed on
	switch {
	case !keep:
		empty := rd.stats.Empty
		rd.stats = before
		rd.stats.Empty = empty
		if passed {
			rd.stats.Duplicates++
		}
	case passed:
		rd.seen(db)
		if expire != 0 {
			rd.stats.Expires++
		}
	}
	rd.release()
	return nil
}

// maxKept is the largest scratch buffer kept from one record to the next: a huge string or
// quicklist does not keep its memory for the rest of the file.
const maxKept = 16 << 20

func (rd *Reader) release() {
	if max(cap(rd.key), cap(rd.a), cap(rd.b), cap(rd.lzf), cap(rd.held)) > maxKept { // rare
		for _, b := range []*[]byte{&rd.key, &rd.a, &rd.b, &rd.lzf, &rd.held} {
			if cap(*b) > maxKept {
				*b = nil
			}
		}
	}
	if cap(rd.heldEnds) > maxKept/8 {
		rd.heldEnds, rd.heldPlain = nil, nil
	}
}

// s wraps a sink error so that fail passes it on unchanged.
func s(err error) error {
	if err != nil {
		return sinkErr{err}
	}
	return nil
}

// member counts a member; inside a large collection it checks ctx and reports progress
// every 65536 members.
func (rd *Reader) member() error {
	rd.stats.Members++
	if rd.stats.Members%(1<<16) != 0 {
		return nil
	}
	if rd.opts.Progress != nil {
		rd.progress()
	}
	return s(rd.ctx.Err())
}

func (rd *Reader) readValue(t byte, exp int64, sink record.Sink) error {
	in := rd.in
	key := rd.key
	var err error
	if rd.keyMeta != nil {
		if err := rd.takeKeyMeta(); err != nil {
			return err
		}
	}
	if rd.valkey && t >= valkeyForeignMin {
		return rd.readNewerType(t, exp, sink) // Valkey's own numbers from 22 on
	}
	switch t {
	case 0:
		if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
			return err
		}
		rd.stats.Keys++
		h := &rd.hdr // a string: set in place, the hot path of a dump of strings
		h.Key, h.Type, h.Value, h.Len, h.ExpireAtMS, h.MinFieldExpireAtMS, h.FieldTTLs, h.ModuleID = key, record.String, rd.a, 0, exp, 0, false, 0
		return s(sink.Begin(h))
	case 1, 2, 3, 4, 5:
		return rd.readPlain(t, exp, sink)
	case 6, 7:
		id, err := rd.moduleID("a module value")
		if err != nil {
			return err
		}
		return rd.moduleValue(t, id, exp, sink)
	case 9, 10, 11, 12, 13, 16, 17, 20, 23, 25:
		if t == 25 {
			if _, err := in.uint64LE(); err != nil { // minExpire: stale at times, Redis ignores it
				return err
			}
		}
		b, err := in.strView(&rd.b, &rd.lzf) // readBlob reads no more of the input
		if err != nil {
			return err
		}
		return rd.readBlob(t, b, exp, sink)
	case 14, 18:
		return rd.readQuicklist(t, exp, sink)
	case 15, 19, 21:
		return rd.readStream(t, exp, sink)
	case 22, 24:
		return rd.readHashTTL(t, exp, sink)
	}
	return rd.readNewerType(t, exp, sink)
}

// begin opens a collection of n members of the type t (an RDB plain type: 1 list, 2 set,
// 3 or 5 zset, 4 hash); plain says the record is of that type, not a compact encoding of
// it (a sorted set's scores are then doubles: record.Header.DoubleScores).
func (rd *Reader) begin(sink record.Sink, t byte, n uint64, exp int64, plain bool) error {
	rd.stats.Keys++
	typ := record.Hash
	switch t {
	case 1:
		typ = record.List
	case 2:
		typ = record.Set
	case 3, 5:
		typ = record.ZSet
	}
	return rd.open(sink, record.Header{Key: rd.key, Type: typ, Len: n, ExpireAtMS: exp, DoubleScores: plain && typ == record.ZSet})
}

// open opens the key h in sink; h is kept in the Reader, and the member the key's Adds
// pass is cleared.
func (rd *Reader) open(sink record.Sink, h record.Header) error {
	rd.hdr, rd.mem = h, record.Member{}
	return s(sink.Begin(&rd.hdr))
}

// add passes a member of the open key to sink: a list element or a set member (name), a
// sorted-set member (name, score) or a hash field (name, value, expiry).
func (rd *Reader) add(sink record.Sink, name, value []byte, score float64, expireAtMS int64) error {
	m := &rd.mem
	m.Name, m.Value, m.Score, m.ExpireAtMS = name, value, score, expireAtMS
	return s(sink.Add(m))
}

// readPlain reads the plain types: a count, then the members one by one.
func (rd *Reader) readPlain(t byte, exp int64, sink record.Sink) error {
	in := rd.in
	n, err := in.plainLength()
	if err != nil {
		return err
	}
	if n == 0 {
		rd.stats.Empty++
		return nil
	}
	if err := rd.begin(sink, t, n, exp, true); err != nil {
		return err
	}
	for range n {
		if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
			return err
		}
		if err := rd.checkMember(t, rd.a); err != nil {
			return err
		}
		switch t {
		case 1, 2:
			err = rd.add(sink, rd.a, nil, 0, 0)
		case 3, 5:
			var f float64
			if f, err = rd.score(t); err == nil {
				err = rd.add(sink, rd.a, nil, f, 0)
			}
		case 4:
			if rd.b, err = in.str(rd.b, &rd.lzf); err == nil {
				err = rd.add(sink, rd.a, rd.b, 0, 0)
			}
		}
		if err != nil {
			return err
		}
		if err := rd.member(); err != nil {
			return err
		}
	}
	return rd.endCollection(t, sink)
}

// score reads a sorted-set score: a binary double (type 5) or a length-prefixed decimal.
func (rd *Reader) score(t byte) (float64, error) {
	in := rd.in
	if t == 5 {
		v, err := in.uint64LE()
		if err != nil {
			return 0, err
		}
		return notNaN(math.Float64frombits(v))
	}
	n, err := in.byte()
	if err != nil {
		return 0, err
	}
	switch n {
	case 253:
		return notNaN(math.NaN())
	case 254:
		return math.Inf(1), nil
	case 255:
		return math.Inf(-1), nil
	}
	b, err := in.next(int(n))
	if err != nil {
		return 0, err
	}
	f, perr := strconv.ParseFloat(string(b), 64)
	if perr != nil {
		return 0, fmt.Errorf("%w %q", errBadScore, b)
	}
	return notNaN(f)
}

// notNaN returns f, or an error if it is NaN: Redis refuses a sorted set with a NaN score
// ("Zset with NAN score detected"), and no command can set one.
func notNaN(f float64) (float64, error) {
	if math.IsNaN(f) {
		return 0, fmt.Errorf("%w: NaN, which Redis refuses", errBadScore)
	}
	return f, nil
}

// entry returns a blob entry as bytes, integers in their decimal form.
func (rd *Reader) entry(s []byte, v int64, isInt bool) []byte {
	if isInt {
		return rd.arena.int(v)
	}
	return s
}

// blobScore returns a score stored as a blob entry.
func blobScore(s []byte, v int64, isInt bool) (float64, error) {
	if isInt {
		return float64(v), nil
	}
	f, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%w %q", errBadScore, s)
	}
	return notNaN(f)
}

// blobKind returns the encoding of a blob type and the plain type it holds.
func blobKind(t byte) (packKind, byte) {
	switch t {
	case 9:
		return kindZipmap, 4
	case 10, 14:
		return kindZiplist, 1
	case 11:
		return kindIntset, 2
	case 12:
		return kindZiplist, 3
	case 13:
		return kindZiplist, 4
	case 16, 23, 25:
		return kindListpack, 4
	case 17:
		return kindListpack, 3
	case 20:
		return kindListpack, 2
	}
	return kindListpack, 1 // 18: quicklist 2 nodes
}

// per returns the entries per member of a blob type.
func per(t byte) int {
	switch t {
	case 9, 12, 13, 16, 17:
		return 2
	case 23, 25:
		return 3
	}
	return 1
}

// readBlob writes the collection held in the blob b of type t (a ziplist, listpack, intset or
// zipmap), its member count taken from the blob.
func (rd *Reader) readBlob(t byte, b []byte, exp int64, sink record.Sink) error {
	kind, plain := blobKind(t)
	var it packIter
	if err := it.open(kind, b); err != nil {
		return err
	}
	entries, err := blobEntries(it, t)
	if err != nil {
		return err
	}
	k := per(t)
	if entries%k != 0 {
		return fmt.Errorf("%w: %s of %d entries, not a multiple of %d", ErrCorrupt, TypeName(t), entries, k)
	}
	if entries == 0 {
		// Redis skips an empty listpack or ziplist (an empty zipmap is damage: packIter).
		rd.stats.Empty++
		return nil
	}
	hfe := t == 23 || t == 25
	if hfe {
		min, err := minFieldTTL(it)
		if err != nil {
			return err
		}
		rd.stats.Keys++
		h := record.Header{Key: rd.key, Type: record.Hash, Len: uint64(entries / 3), ExpireAtMS: exp, MinFieldExpireAtMS: min, FieldTTLs: true}
		if err := rd.open(sink, h); err != nil {
			return err
		}
	} else if err := rd.begin(sink, plain, uint64(entries/k), exp, false); err != nil {
		return err
	}
	if err := rd.emitBlob(&it, t, plain, sink); err != nil {
		return err
	}
	return rd.endCollection(plain, sink)
}

// blobEntries counts the entries of an opened blob of type t by walking it (it is passed by
// value: the caller's stays at the start), and checks the count its header declares, which
// the member count handed on comes from and which Redis does not check at load.
func blobEntries(it packIter, t byte) (int, error) {
	n := 0
	for {
		if _, _, _, ok := it.next(); !ok {
			break
		}
		n++
	}
	if it.err != nil {
		return 0, it.err
	}
	if it.count >= 0 && it.count != n {
		return 0, fmt.Errorf("%w: %s: its header says %d entries, it holds %d", ErrCorrupt, TypeName(t), it.count, n)
	}
	return n, nil
}

// emitBlob writes the members of an opened blob to the open collection.
func (rd *Reader) emitBlob(it *packIter, t, plain byte, sink record.Sink) error {
	hfe := t == 23 || t == 25
	for {
		rd.arena.reset()
		s1, v1, i1, ok := it.next()
		if !ok {
			return it.err
		}
		var err error
		switch plain {
		case 1:
			err = rd.add(sink, rd.entry(s1, v1, i1), nil, 0, 0)
		case 2:
			m := rd.entry(s1, v1, i1)
			if err := rd.checkMember(2, m); err != nil {
				return err
			}
			err = rd.add(sink, m, nil, 0, 0)
		default:
			if err := rd.checkMember(plain, rd.entry(s1, v1, i1)); err != nil {
				return err
			}
			s2, v2, i2, ok := it.next()
			if !ok {
				return cmp.Or(it.err, fmt.Errorf("%w: %s ends inside a member", ErrCorrupt, TypeName(t)))
			}
			if plain == 3 {
				f, err := blobScore(s2, v2, i2)
				if err != nil {
					return err
				}
				err = rd.add(sink, rd.entry(s1, v1, i1), nil, f, 0)
				if err != nil {
					return err
				}
				break
			}
			if !hfe {
				err = rd.add(sink, rd.entry(s1, v1, i1), rd.entry(s2, v2, i2), 0, 0)
				break
			}
			_, ttl, isInt, ok := it.next()
			if !ok || !isInt || ttl < 0 || ttl > maxFieldTTL {
				return fmt.Errorf("%w: bad ttl of field %q", errBadHashTTL, rd.entry(s1, v1, i1))
			}
			err = rd.add(sink, rd.entry(s1, v1, i1), rd.entry(s2, v2, i2), 0, ttl)
		}
		if err != nil {
			return err
		}
		if err := rd.member(); err != nil {
			return err
		}
	}
}

// minFieldTTL returns the smallest non-zero TTL of a field-TTL listpack (field, value, ttl
// triples), 0 when no field has one. it is passed by value: the caller's stays at the start.
func minFieldTTL(it packIter) (int64, error) {
	var min int64
	for i := 0; ; i++ {
		_, v, isInt, ok := it.next()
		if !ok {
			return min, it.err
		}
		if i%3 == 2 && isInt && v > 0 && (min == 0 || v < min) {
			min = v
		}
	}
}
