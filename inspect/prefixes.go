package inspect

import (
	"bytes"
	"cmp"
	"slices"
)

// PrefixOptions ask Read for the keys, file bytes and estimated used_memory per key prefix.
type PrefixOptions struct {
	// Separator splits a key's name; default ":".
	Separator string
	// Depth is the number of leading parts a prefix keeps ("user:42:cart" at depth 1 is
	// "user:"); default 1. A key with no more parts than that is its own prefix.
	Depth int
	// Top is the number of prefixes listed, by estimated memory; default 20. The rest are
	// summed in one row, "other".
	Top int
}

// maxPrefixes bounds the distinct prefixes counted apart: max(64*Top, 10000). Figures are
// exact when a dump has no more; past that, prefixes first seen once the table is full
// are summed in "other" (so a large family first met late may be missed from the list;
// the totals stay exact).
func maxPrefixes(top int) int { return max(64*top, 10000) }

// A Prefix is the figures of one key prefix, or of "other".
type Prefix struct {
	Prefix string `json:"prefix"`
	Keys   uint64 `json:"keys"`
	Bytes  int64  `json:"bytes"`  // in the file
	Memory int64  `json:"memory"` // estimated used_memory (keys already expired count 0)
	// Other marks the row that sums the prefixes not listed.
	Other bool `json:"other,omitempty"`
}

// prefixes counts keys by prefix in at most maxPrefixes entries.
type prefixes struct {
	opts  PrefixOptions
	sep   []byte
	by    map[string]*Prefix
	other Prefix
	// overflowed: some prefix went to other for lack of room.
	overflowed bool
}

func newPrefixes(o PrefixOptions) *prefixes {
	if o.Separator == "" {
		o.Separator = ":"
	}
	if o.Depth <= 0 {
		o.Depth = 1
	}
	if o.Top <= 0 {
		o.Top = 20
	}
	return &prefixes{opts: o, sep: []byte(o.Separator), by: map[string]*Prefix{}, other: Prefix{Prefix: "other", Other: true}}
}

// prefix returns key's prefix: its first Depth parts and the separator after them.
func (p *prefixes) prefix(key []byte) []byte {
	end := 0
	for range p.opts.Depth {
		i := bytes.Index(key[end:], p.sep)
		if i < 0 {
			return key
		}
		end += i + len(p.sep)
	}
	return key[:end]
}

// add counts a key.
func (p *prefixes) add(key []byte, size, mem int64) {
	pre := p.prefix(key)
	e := p.by[string(pre)]
	if e == nil {
		if len(p.by) >= maxPrefixes(p.opts.Top) {
			p.overflowed = true
			e = &p.other
		} else {
			e = &Prefix{Prefix: string(pre)}
			p.by[e.Prefix] = e
		}
	}
	e.Keys++
	e.Bytes += size
	e.Memory += mem
}

// result returns the Top prefixes by memory (then keys, then name), and "other" when any
// key is left: rows that add up to every key.
func (p *prefixes) result() []Prefix {
	all := make([]Prefix, 0, len(p.by))
	for _, e := range p.by {
		all = append(all, *e)
	}
	slices.SortFunc(all, func(a, b Prefix) int {
		return cmp.Or(cmp.Compare(b.Memory, a.Memory), cmp.Compare(b.Keys, a.Keys), cmp.Compare(a.Prefix, b.Prefix))
	})
	other := p.other
	for _, e := range all[min(p.opts.Top, len(all)):] {
		other.Keys += e.Keys
		other.Bytes += e.Bytes
		other.Memory += e.Memory
	}
	out := all[:min(p.opts.Top, len(all))]
	if other.Keys > 0 {
		out = append(out, other)
	}
	return out
}
