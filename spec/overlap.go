package spec

import (
	"context"
	"fmt"
	"strings"
)

// Keys are unique across families, and the check happens before anything is written. Within
// a family they are unique by construction (see key.go). Two families in different databases
// never clash. For two families in one database, checkOverlaps first tries to prove them
// disjoint from their patterns alone:
//
//   - the literal prefixes differ (neither is a prefix of the other), or the suffixes do;
//   - both use {id} with the same prefix and suffix, and their id ranges do not meet
//     (a canonical decimal names one number);
//
// and otherwise lists the keys of the smaller family and asks the other, with Contains,
// whether it holds each one. Contains computes its answer from the key alone ({uuid} keys
// are inverted through their bijection), so the check is exact and takes no memory, in time
// proportional to the smaller family; past maxEnumerate keys it refuses the spec instead.

// checkOverlaps returns an *Error naming the first two families whose keys meet.
// It stops with ctx's error when ctx is cancelled.
func (s *Spec) checkOverlaps(ctx context.Context) error {
	for b := 1; b < len(s.Families); b++ {
		for a := 0; a < b; a++ {
			fa, fb := s.Families[a], s.Families[b]
			if fa.DB != fb.DB || fa.count == 0 || fb.count == 0 || disjointPatterns(fa, fb) {
				continue
			}
			small, big := fa, fb
			if fb.count < fa.count {
				small, big = fb, fa
			}
			e := &Error{File: s.File, Line: fb.keyLine, Column: fb.keyCol, Field: fb.path + ".key"}
			if small.count > maxEnumerate {
				e.Msg = fmt.Sprintf("cannot prove the keys of %q and %q (line %d, both in db %d) apart without listing %d keys: give them distinct literal prefixes or suffixes",
					fb.key.text, fa.key.text, fa.Line, fa.DB, small.count)
				return e
			}
			var key []byte
			for i := range small.count {
				if i%cancelEvery == cancelEvery-1 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				key = small.AppendKey(key[:0], i)
				if big.Contains(key) {
					e.Msg = fmt.Sprintf("family %q (key %q) and family %q at line %d (key %q) both make the key %q in db %d: keys must be unique",
						fb.Name, fb.key.text, fa.Name, fa.Line, fa.key.text, key, fa.DB)
					return e
				}
			}
		}
	}
	return nil
}

// disjointPatterns reports whether the patterns of a and b alone prove that no key is in both.
func disjointPatterns(a, b *Family) bool {
	ka, kb := a.key, b.key
	if ka.slot == slotNone || kb.slot == slotNone {
		return false // one key: Contains answers at once
	}
	if !strings.HasPrefix(ka.prefix, kb.prefix) && !strings.HasPrefix(kb.prefix, ka.prefix) {
		return true
	}
	if !strings.HasSuffix(ka.suffix, kb.suffix) && !strings.HasSuffix(kb.suffix, ka.suffix) {
		return true
	}
	if ka.slot == slotID && kb.slot == slotID && ka.prefix == kb.prefix && ka.suffix == kb.suffix {
		lastA, lastB := a.IDStart+(a.count-1), b.IDStart+(b.count-1)
		return lastA < b.IDStart || lastB < a.IDStart
	}
	return false
}
