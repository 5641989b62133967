package decoder

import "context"

// A KeyLog is the reader's check for keys that come more than once (a hashLog of their
// hashes, dups_log.go) offered to a caller that joins several sources, as a merge does:
// Add each key of every source, then Repeats names the candidates, the keys whose 64-bit
// hash came more than once, a superset of the keys that did, for the caller to compare
// exactly (in the usual case of none, nothing more is held). Memory is 5.5 MiB whatever
// the number of keys; past about half a million keys the hashes go to a temporary file in $TMPDIR, 8 bytes
// a key, removed by Close. Use NewKeyLog, and Close it.
type KeyLog struct {
	seed hashSeed
	log  *hashLog
}

// NewKeyLog returns an empty KeyLog.
func NewKeyLog() *KeyLog { return &KeyLog{seed: newSeed(), log: newHashLog("keys", nil)} }

// Add adds db's key.
func (l *KeyLog) Add(db int, key []byte) { l.log.add(keyHash(&l.seed, db, key)) }

// Repeats ends the log and returns the candidates: the keys whose hash came more than once.
// It stops with ctx's error, and with the temporary file's.
func (l *KeyLog) Repeats(ctx context.Context) (*Candidates, error) {
	rep, err := l.log.repeatedList(ctx)
	if err != nil {
		return nil, err
	}
	c := &Candidates{seed: l.seed}
	c.rep.sized(len(rep))
	for _, h := range rep {
		c.rep.add(h)
	}
	return c, nil
}

// Close ends the log and removes its temporary file.
func (l *KeyLog) Close() { l.log.close() }

// Candidates are the keys a KeyLog found may have come more than once, by hash (in a
// hashSet: 8 to 16 bytes each).
type Candidates struct {
	seed hashSeed
	rep  hashSet
}

// Len returns the number of hashes that came more than once.
func (c *Candidates) Len() int { return c.rep.n }

// Has reports whether db's key is a candidate: its hash came more than once.
func (c *Candidates) Has(db int, key []byte) bool {
	return c.rep.n > 0 && c.rep.has(keyHash(&c.seed, db, key))
}
