package decoder

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/rdbgen/rdbgen/record"
)

// Confirming repeated keys: the hashes that come twice name candidates, and a reading of
// the file with a key-only sink compares their bytes (see keep for when).

// checkLog logs the keys before the first out of order, finds the keys whose hashes the
// log holds twice, and reads the file again to compare them: a key that comes again is an
// error naming both records.
func (rd *Reader) checkLog() error {
	if err := rd.logPrefix(); err != nil {
		return err
	}
	rep, err := rd.log.repeated(rd.ctx)
	if err != nil || len(rep) == 0 {
		return err
	}
	again, err := rd.readAgain()
	if err != nil {
		return fmt.Errorf("read the file again to compare keys: %w", err)
	}
	found := dupIndex{}
	if err := again.WriteTo(rd.ctx, repeatSink(rd.seed, rep, &again, found)); err != nil {
		return fmt.Errorf("read the file again to compare keys: %w", err)
	}
	found.prune()
	return found.err()
}

// readAgain returns a Reader of the file from its start that passes every record on (no
// OnDuplicate, no progress), for a second reading.
func (rd *Reader) readAgain() (*Reader, error) {
	opts := rd.opts
	opts.OnDuplicate, opts.Progress = "", nil
	return NewReader(io.NewSectionReader(rd.ra, 0, math.MaxInt64), opts)
}

// A dupKey is a key that comes more than once in its db: where its records are.
type dupKey struct {
	db                  int
	key                 []byte
	first, second, last int64 // offsets of its first, second and last records
	n                   int
}

// A dupIndex holds keys that come more than once, by db and key (see get).
type dupIndex map[string]*dupKey

// get returns db's key, or nil when it does not repeat; scratch holds the map's key.
func (x dupIndex) get(db int, key []byte, scratch *[]byte) *dupKey {
	*scratch = append(binary.LittleEndian.AppendUint32((*scratch)[:0], uint32(db)), key...)
	return x[string(*scratch)]
}

// err returns the error of the key that comes again first in the file, nil when none does.
func (x dupIndex) err() error {
	var d *dupKey
	for _, k := range x {
		if d == nil || k.second < d.second {
			d = k
		}
	}
	if d == nil {
		return nil
	}
	return &Error{Offset: d.second, Key: d.key, Err: fmt.Errorf("%w in db %d (its first record at byte %d): keep the first with --on-duplicate first, or the last with --on-duplicate last",
		record.ErrDuplicateKey, d.db, d.first)}
}

// repeatSink returns a key-only sink that notes in found the records of the keys whose
// hash (with seed, or-ed with 1) is in rep, at the offsets of *rd, the Reader feeding it;
// found.prune then drops the keys that came once.
func repeatSink(seed hashSeed, rep map[uint64]struct{}, rd **Reader, found dupIndex) *keySink {
	var scratch []byte
	return &keySink{fn: func(db int, key []byte) error {
		if _, ok := rep[keyHash(&seed, db, key)|1]; !ok {
			return nil
		}
		at := (*rd).recStart
		if d := found.get(db, key, &scratch); d != nil {
			if d.n++; d.n == 2 {
				d.second = at
			}
			d.last = at
			return nil
		}
		found[string(scratch)] = &dupKey{db: db, key: bytes.Clone(key), first: at, last: at, n: 1}
		return nil
	}}
}

// prune drops the keys that came once.
func (x dupIndex) prune() {
	for k, d := range x {
		if d.n < 2 {
			delete(x, k)
		}
	}
}

// repeatedKeys reads the file once for the keys that come more than once: their hashes
// through a hashLog, then, only when some hashes repeat, the file again to compare them.
func repeatedKeys(ctx context.Context, f File) (dupIndex, error) {
	opts := f.Options
	opts.OnDuplicate, opts.Progress = "", nil
	seed := newSeed()
	log := newHashLog("keys", nil)
	defer log.close()
	err := f.read(ctx, opts, func(*Reader) {}, &keySink{fn: func(db int, key []byte) error {
		log.add(keyHash(&seed, db, key))
		return nil
	}})
	if err != nil {
		return nil, err
	}
	rep, err := log.repeated(ctx)
	if err != nil || len(rep) == 0 {
		return nil, err
	}
	var rd *Reader
	found := dupIndex{}
	if err := f.read(ctx, opts, func(r *Reader) { rd = r }, repeatSink(seed, rep, &rd, found)); err != nil {
		return nil, err
	}
	found.prune()
	return found, nil
}

// keySink calls fn with the db and key of each record it gets, and drops the rest.
type keySink struct {
	record.Discard
	db int
	fn func(db int, key []byte) error
}

func (s *keySink) BeginDB(db int, _ record.Counts) error { s.db = db; return nil }
func (s *keySink) Begin(h *record.Header) error          { return s.fn(s.db, h.Key) }
