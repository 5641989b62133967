package inspect

import (
	"bytes"
	"cmp"
	"hash/maphash"
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
	// then count only the keys met since it entered the table.
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
	// unlisted holds, once the table is full, the memory of the prefixes it does not hold,
	// summed by a hash of the prefix (filtered Space-Saving, Homem and Carvalho): a prefix
	// enters the table only when its cell's sum passes the least entry, so a dump of more
	// distinct prefixes than the table holds costs an array add a key, not a change of the
	// table. A prefix out of the table holds at most its cell's sum.
	unlisted []cell
	seed     maphash.Seed
}

// cell is the part of prefixes.unlisted of the prefixes of one hash.
type cell struct {
	// sum is the memory of the prefixes out of the table (see prefixes.unlisted).
	sum int64
	// held counts the prefixes of the table, and onlyHeld those of prefixes.only: a key
	// whose cell holds none is not looked up in the map (most keys, when there are many
	// more prefixes than entries).
	held, onlyHeld uint32
}

// unlistedCells is the size of prefixes.unlisted: 1 MiB.
const unlistedCells = 1 << 16

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
	return &prefixes{opts: o, sep: []byte(o.Separator), by: map[string]*counted{}, total: Prefix{Prefix: "other", Other: true},
		unlisted: make([]cell, unlistedCells), seed: maphash.MakeSeed()}
}

// restrict makes p count only the prefixes of only (a second pass), the others in total alone.
func (p *prefixes) restrict(only map[string]bool) {
	p.only = only
	for pre := range only {
		p.unlisted[p.cell([]byte(pre))].onlyHeld++
	}
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

// add counts a key. Once the table is full, a new prefix's memory is summed in its cell of
// unlisted; when that sum passes the entry of least memory, m, the prefix takes m's place,
// starting from the sum (filtered Space-Saving), and m's memory goes to m's cell. Every
// entry's Memory is then at least its prefix's own, by at most MemoryError, and a prefix
// not in the table holds at most the least Memory in it (see bound): a cell's sum never
// passes the least entry, which only grows.
func (p *prefixes) add(key []byte, size, mem int64) {
	p.total.Keys++
	p.total.Bytes += size
	p.total.Memory += mem
	pre := p.prefix(key)
	c := &p.unlisted[p.cell(pre)]
	var e *counted
	if c.held != 0 {
		e = p.by[string(pre)]
	}
	if e == nil && p.only != nil && (c.onlyHeld == 0 || !p.only[string(pre)]) {
		return
	}
	switch {
	case e != nil:
	case len(p.by) < maxPrefixes(p.opts.Top) || p.only != nil:
		e = &counted{Prefix: Prefix{Prefix: string(pre)}, idx: -1}
		p.by[e.Prefix.Prefix] = e
		c.held++
	default:
		p.overflowed = true
		if p.heap == nil {
			p.heap = newMinMemory(p.by)
		}
		least := p.heap.least()
		if c.sum+mem <= least.Memory {
			c.sum += mem
			return
		}
		// The prefix enters in place of the least entry, whose sum goes to its own cell
		// so that the cell still bounds it.
		out := &p.unlisted[p.cell([]byte(least.Prefix.Prefix))]
		out.sum = max(out.sum, least.Memory)
		out.held--
		delete(p.by, least.Prefix.Prefix)
		c.held++
		e = least
		e.Prefix = Prefix{Prefix: string(pre), Memory: c.sum, MemoryError: c.sum}
		p.by[e.Prefix.Prefix] = e
	}
	e.Keys++
	e.Bytes += size
	e.Memory += mem
	if e.idx >= 0 {
		p.heap.fix(e.idx)
	}
}

// cell returns the index in unlisted of pre's sum.
func (p *prefixes) cell(pre []byte) uint64 {
	return maphash.Bytes(p.seed, pre) & (unlistedCells - 1)
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
