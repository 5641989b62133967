package inspect

import (
	"bytes"
	"cmp"
	"encoding/binary"
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
	// held is a Bloom filter of one hash over the prefixes of by, made once by is full:
	// a dump of many more prefixes than that (keys without a separator, each its own
	// prefix) then mostly looks up prefixes by does not hold, and the filter, a tenth of
	// the map's size, answers most of them without the map's cache misses.
	held []uint64
}

// heldBits is the size of prefixes.held in bits: 2^19, 64 KiB, about 2% of false
// positives with the 10,000 prefixes of the default maxPrefixes.
const (
	heldLog  = 19
	heldBits = 1 << heldLog
)

// fill makes held from the prefixes of by.
func (p *prefixes) fill() {
	p.held = make([]uint64, heldBits/64)
	for k := range p.by {
		h := heldBit([]byte(k))
		p.held[h/64] |= 1 << (h % 64)
	}
}

// mayHold tells whether by may hold pre: false when the filter tells it does not.
func (p *prefixes) mayHold(pre []byte) bool {
	if p.held == nil {
		return true
	}
	h := heldBit(pre)
	return p.held[h/64]&(1<<(h%64)) != 0
}

// heldBit returns the bit of held that stands for b: a multiplicative hash of b taken
// eight bytes at a time, quicker than hash/maphash on the short names keys mostly have.
// Names made to collide only cost the map lookups the filter would have spared.
func heldBit(b []byte) uint64 {
	const k = 0x9e3779b97f4a7c15
	h := uint64(len(b)) * k
	var tail uint64
	if len(b) >= 8 {
		tail = binary.LittleEndian.Uint64(b[len(b)-8:]) // the last eight, read over the words before
		for ; len(b) > 8; b = b[8:] {
			h = (h ^ binary.LittleEndian.Uint64(b)) * k
			h ^= h >> 31
		}
	} else {
		for i, c := range b {
			tail |= uint64(c) << (8 * i)
		}
	}
	h = (h ^ tail) * k
	return h >> (64 - heldLog)
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
		var i int
		if len(p.sep) == 1 {
			i = bytes.IndexByte(key[end:], p.sep[0])
		} else {
			i = bytes.Index(key[end:], p.sep)
		}
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
	var e *Prefix
	if p.mayHold(pre) {
		e = p.by[string(pre)]
	}
	if e == nil {
		if len(p.by) >= maxPrefixes(p.opts.Top) {
			if p.held == nil {
				p.fill()
			}
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
