package decoder

import (
	"bytes"
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
	last   []byte         // the last key of db
	others map[int][]byte // the last key of each other db a key was passed on in
	broken int64          // the offset of the first record out of order, -1 while none is
}

// newKeyOrder returns a keyOrder before any key.
func newKeyOrder() *keyOrder { return &keyOrder{broken: -1} }

// next reports whether db's key comes after the last key of db, and if so takes key as
// the last and returns the buffer of the one before, for the caller to read the next key
// into: no key is copied.
func (o *keyOrder) next(db int, key []byte) (spare []byte, ok bool) {
	if db != o.db {
		o.switchDB(db)
	}
	if o.any && bytes.Compare(key, o.last) <= 0 {
		return nil, false
	}
	spare, o.last, o.any = o.last[:0], key, true
	return spare, true
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
