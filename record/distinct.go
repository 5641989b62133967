package record

import (
	"context"
	"fmt"
)

// A Distinct is a Source over the records of Src with a key that comes again in its
// database handled by the rule of On, as readers handle a dump's repeats: an error wrapping
// ErrDuplicateKey naming the key (DupError), only its first record (DupFirst), or only its
// last (DupLast: Src is read twice, first for its keys). It is for stages that may make one
// key of two, as rename rules do; the keys are remembered in a KeySet (32 to 64 bytes a key).
type Distinct struct {
	Src Source
	On  OnDuplicate
	// What names the stage that made the repeat, for the error ("--rewrite renamed two
	// keys to one").
	What string
	// Duplicates counts the records left out, once WriteTo returns.
	Duplicates uint64
}

// WriteTo writes the records of d.Src that the rule keeps into sink.
func (d *Distinct) WriteTo(ctx context.Context, sink Sink) error {
	keys := NewKeySet()
	d.Duplicates = 0
	if d.On == DupLast {
		l := &keyNumberer{keys: keys}
		if err := d.Src.WriteTo(ctx, l); err != nil {
			return err
		}
	}
	n := &keyNumberer{}
	gate := &Gate{Pass: Pass{Next: sink}}
	gate.Keep = func(h *Header) (bool, error) {
		n.n++
		if d.On == DupLast {
			last, _ := keys.Get(n.db, h.Key)
			return last == n.n, nil
		}
		if _, dup := keys.Add(n.db, h.Key, n.n); !dup {
			return true, nil
		}
		if d.On == DupFirst {
			return false, nil
		}
		return false, fmt.Errorf("%w: %s: db %d key %q comes twice (--on-duplicate first or last keeps one)", ErrDuplicateKey, d.What, n.db, h.Key)
	}
	err := d.Src.WriteTo(ctx, &dbNoter{Gate: gate, n: n})
	d.Duplicates = gate.Dropped
	return err
}

// keyNumberer numbers the keys it is given, from 1, noting the open database; with keys, it
// puts each key there with its number (the last record of a key is the last put).
type keyNumberer struct {
	Discard
	keys *KeySet
	db   int
	n    int64
}

// BeginDB notes db.
func (k *keyNumberer) BeginDB(db int, _ Counts) error { k.db = db; return nil }

// Begin numbers the key.
func (k *keyNumberer) Begin(h *Header) error { k.n++; k.keys.Put(k.db, h.Key, k.n); return nil }

// dbNoter is a Gate that notes the open database in n for its Keep.
type dbNoter struct {
	*Gate
	n *keyNumberer
}

// BeginDB notes db and passes the call on, without counts: the keys left out would make
// them wrong.
func (d *dbNoter) BeginDB(db int, _ Counts) error {
	d.n.db = db
	return d.Gate.BeginDB(db, Counts{})
}
