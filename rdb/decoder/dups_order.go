package decoder

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Keys in order. Under record.DupError from a file, no key can have come twice while each
// db's keys come in strictly increasing byte order, as rdbgen writes them: a keyOrder
// checks that with one comparison a key, and no hash is logged. At the first key out of
// order, the Reader starts its hashLog with that key, and before the log is checked
// (checkLog) logs the keys read before it by reading that part of the file again
// (logPrefix): a file whose second key is out of order, as a Redis dump's usually is,
// reads one record again; a file in order up to its last key, the whole file again.

// keyOrder follows whether the keys passed on so far came in strictly increasing byte
// order in each db.
type keyOrder struct {
	db     int
	any    bool           // a key of db was passed on
	last   []byte         // the last key of db (with words, its bytes are hi and lo's)
	others map[int][]byte // the last key of each other db a key was passed on in
	broken int64          // the offset of the first record out of order, -1 while none is
	// words is the length of last when it is of 8 to 16 bytes, as rdbgen's keys are, else
	// 0. Then hi and lo, its first and last 8 bytes read big-endian, are the last key's own:
	// takeWords updates them and not last, and sync writes them into last before anything
	// else reads it.
	words  int
	hi, lo uint64
}

// newKeyOrder returns a keyOrder before any key.
func newKeyOrder() *keyOrder { return &keyOrder{broken: -1} }

// next reports whether db's key comes after the last key of db, and if so takes key as
// the last and returns the buffer of the one before, for the caller to read the next key
// into: no key is copied.
func (o *keyOrder) next(db int, key []byte) (spare []byte, ok bool) {
	if !o.inOrder(db, key) {
		return nil, false
	}
	spare, o.last, o.any = o.last[:0], key, true
	o.load()
	return spare, true
}

// take is next for a key the caller keeps no buffer of: in order, it is copied as the last.
func (o *keyOrder) take(db int, key []byte) bool {
	if !o.inOrder(db, key) {
		return false
	}
	o.last, o.any = append(o.last[:0], key...), true
	o.load()
	return true
}

// inOrder takes up db and reports whether key comes after its last key.
func (o *keyOrder) inOrder(db int, key []byte) bool {
	o.sync()
	if db != o.db {
		o.switchDB(db)
	}
	return !o.any || after(key, o.last)
}

// takeWords is take for the common case at the cost of a few instructions, inlined in the
// caller: a key of db as long as the last, of 8 to 16 bytes, is compared with the last in
// words of 8 bytes and taken as the last in hi and lo. It returns false, for take to
// decide, when the key is not in order or the case is another.
func (o *keyOrder) takeWords(db int, key []byte) bool {
	n := len(key)
	if db != o.db || n != o.words || n < 8 {
		return false
	}
	a, c := binary.BigEndian.Uint64(key), binary.BigEndian.Uint64(key[n-8:])
	if a < o.hi || a == o.hi && c <= o.lo {
		return false
	}
	o.hi, o.lo = a, c
	return true
}

// load takes words, hi and lo from last, just replaced.
func (o *keyOrder) load() {
	o.words = 0
	if n := len(o.last); o.any && n >= 8 && n <= 16 {
		o.hi, o.lo, o.words = binary.BigEndian.Uint64(o.last), binary.BigEndian.Uint64(o.last[n-8:]), n
	}
}

// sync writes hi and lo into last: its bytes are then the last key's.
func (o *keyOrder) sync() {
	if n := o.words; n != 0 {
		binary.BigEndian.PutUint64(o.last, o.hi)
		binary.BigEndian.PutUint64(o.last[n-8:], o.lo)
	}
}

// after reports whether key comes after last in byte order. Two keys of one length of 8 to
// 16 bytes, as rdbgen's and most keys of a cache are, are compared by two loads of 8 bytes
// each, big-endian: their first 8 bytes, then, equal, their last 8 (those they share are
// equal too).
func after(key, last []byte) bool {
	if n := len(key); n == len(last) && n >= 8 && n <= 16 {
		a, b := binary.BigEndian.Uint64(key), binary.BigEndian.Uint64(last)
		if a == b {
			a, b = binary.BigEndian.Uint64(key[n-8:]), binary.BigEndian.Uint64(last[n-8:])
		}
		return a > b
	}
	return bytes.Compare(key, last) > 0
}

// switchDB keeps the last key of the db followed so far and takes up db's.
func (o *keyOrder) switchDB(db int) {
	if o.any {
		if o.others == nil {
			o.others = map[int][]byte{}
		}
		o.others[o.db] = o.last
	}
	o.db = db
	o.last, o.any = o.others[db]
	delete(o.others, db)
	o.load()
}

// errPrefixRead ends logPrefix's reading at the first record out of order.
var errPrefixRead = errors.New("the keys before the first out of order were read")

// logPrefix adds to the log the hashes of the keys passed on before the first record out
// of order, read again from the file.
func (rd *Reader) logPrefix() error {
	again, err := rd.readAgain()
	if err == nil {
		err = again.WriteTo(rd.ctx, &keySink{fn: func(db int, key []byte) error {
			if again.recStart >= rd.order.broken {
				return errPrefixRead
			}
			rd.log.add(keyHash(&rd.seed, db, key))
			return nil
		}})
	}
	if err != nil && !errors.Is(err, errPrefixRead) {
		return fmt.Errorf("read the file again for the keys before the first out of order: %w", err)
	}
	return nil
}
