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
	// Top is the number of prefixes listed, by estimated memory; default 20, negative for
	// none. The rest are summed in one row, "other".
	Top int
}

// maxPrefixes bounds the distinct prefixes counted apart: max(64*Top, 10000). Figures are
// exact when a dump has no more. Past that the table keeps the prefixes of most memory
// (see prefixes.add) and Read counts those again, exactly, in a second pass over the file.
func maxPrefixes(top int) int { return max(64*top, 10000) }

// A Prefix is the figures of one key prefix, or of "other".
type Prefix struct {
	Prefix string `json:"prefix"`
	Keys   uint64 `json:"keys"`
	Bytes  int64  `json:"bytes"`  // in the file
	Memory int64  `json:"memory"` // estimated used_memory (keys already expired count 0)
	// MemoryError is nonzero only when the file could not be read twice (Read of a reader
	// that cannot seek) and the dump has more prefixes than the table holds: the row's
	// Memory may exceed the prefix's own by up to MemoryError, and its Keys and Bytes
	// then include those of the prefixes it displaced from the table.
	MemoryError int64 `json:"memory_error,omitempty"`
	// Other marks the row that sums the prefixes not listed.
	Other bool `json:"other,omitempty"`
}

// prefixes counts keys by prefix in at most maxPrefixes entries.
type prefixes struct {
	opts PrefixOptions
	sep  []byte
	by   map[string]*counted
	// total sums every key, listed or not.
	total Prefix
	// heap orders the entries by memory once the table is full (nil before).
	heap minMemory
	// only, when set, restricts the count to these prefixes (a second pass): the others
	// are summed in total alone.
	only map[string]bool
	// overflowed: the table was full when a new prefix came.
	overflowed bool
}

// counted is one prefix's figures in the table.
type counted struct {
	Prefix
	idx int // in heap
}

func newPrefixes(o PrefixOptions) *prefixes {
	if o.Separator == "" {
		o.Separator = ":"
	}
	if o.Depth <= 0 {
		o.Depth = 1
	}
	if o.Top == 0 {
		o.Top = 20
	}
	return &prefixes{opts: o, sep: []byte(o.Separator), by: map[string]*counted{}, total: Prefix{Prefix: "other", Other: true}}
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

// add counts a key. A new prefix met when the table is full takes the place of the entry
// of least memory, m, and starts from m's figures (weighted Space-Saving): every entry's
// Memory is then at least its prefix's own, by at most MemoryError, and a prefix not in
// the table holds at most the least Memory in it (see bound).
func (p *prefixes) add(key []byte, size, mem int64) {
	p.total.Keys++
	p.total.Bytes += size
	p.total.Memory += mem
	pre := p.prefix(key)
	if p.only != nil && !p.only[string(pre)] {
		return
	}
	e := p.by[string(pre)]
	switch {
	case e != nil:
	case len(p.by) < maxPrefixes(p.opts.Top) || p.only != nil:
		e = &counted{Prefix: Prefix{Prefix: string(pre)}, idx: -1}
		p.by[e.Prefix.Prefix] = e
	default:
		p.overflowed = true
		if p.heap == nil {
			p.heap = newMinMemory(p.by)
		}
		e = p.heap.least()
		delete(p.by, e.Prefix.Prefix)
		e.Prefix.Prefix, e.MemoryError = string(pre), e.Memory
		p.by[e.Prefix.Prefix] = e
	}
	e.Keys++
	e.Bytes += size
	e.Memory += mem
	if e.idx >= 0 {
		p.heap.fix(e.idx)
	}
}

// bound returns the most estimated memory a prefix missing from the table may hold: 0
// before the table was full, else the least Memory in it.
func (p *prefixes) bound() int64 {
	if p.heap == nil {
		return 0
	}
	return p.heap.least().Memory
}

// candidates returns the prefixes the table holds, for an exact second count.
func (p *prefixes) candidates() map[string]bool {
	only := make(map[string]bool, len(p.by))
	for pre := range p.by {
		only[pre] = true
	}
	return only
}

// result returns the Top prefixes by memory (then keys, then name), and "other" when any
// key is left: rows that add up to every key.
func (p *prefixes) result() []Prefix {
	if p.opts.Top < 0 {
		return nil
	}
	all := make([]Prefix, 0, len(p.by))
	for _, e := range p.by {
		all = append(all, e.Prefix)
	}
	slices.SortFunc(all, func(a, b Prefix) int {
		return cmp.Or(cmp.Compare(b.Memory, a.Memory), cmp.Compare(b.Keys, a.Keys), cmp.Compare(a.Prefix, b.Prefix))
	})
	out := all[:min(p.opts.Top, len(all))]
	other := p.total
	for _, e := range out {
		other.Keys -= e.Keys
		other.Bytes -= e.Bytes
		other.Memory -= e.Memory
	}
	if other.Keys > 0 {
		out = append(out, other)
	}
	return out
}
