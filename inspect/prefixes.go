package inspect

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"math"
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
// (see prefixes.add) and Read counts those again, exactly, in a second pass over the file,
// when that can tell the largest apart (see prefixes.plan).
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
	// restricted: a second pass, which counts only the entries by holds from the start,
	// the other prefixes in total alone.
	restricted bool
	// overflowed: the table was full when a new prefix came.
	overflowed bool
	// none: no row is listed but "other" (see plan).
	none bool
	// unlisted holds the memory of the prefixes the table does not hold, summed by a hash of
	// the prefix (filtered Space-Saving, Homem and Carvalho): a prefix enters the table only
	// when its cell's sum passes enter, so a dump of many more distinct prefixes than the
	// table holds costs a hash and an array add a key, not a change of the table. A prefix
	// out of the table holds at most its cell's sum, and so at most maxCell.
	unlisted []cell
	maxCell  int64
	// enter is twice the least entry's memory once the table is full (see add).
	enter int64
	seed  maphash.Seed
}

// cell is the part of prefixes.unlisted of the prefixes of one hash: 16 bytes.
type cell struct {
	// sum is the memory of the prefixes out of the table (see prefixes.unlisted).
	sum int64
	// tags holds tagOf of the table's prefixes of this cell (0 for none), and spill counts
	// those that found no free tag: a key whose tag is not there, when none spilled, is not
	// looked up in the map (most keys, when there are many more prefixes than entries).
	// Seven tags of a byte rather than fewer wider ones: the cells a full table takes its
	// new entries from hold several, and a spilled cell looks up every key of its own.
	tags  [7]uint8
	spill uint8
}

// has tells whether the table may hold a prefix of tag t in c.
func (c *cell) has(t uint8) bool {
	return c.spill != 0 || slices.Contains(c.tags[:], t)
}

// hold notes a prefix of tag t that enters the table.
func (c *cell) hold(t uint8) {
	if i := slices.Index(c.tags[:], 0); i >= 0 {
		c.tags[i] = t
	} else if c.spill < math.MaxUint8 { // at the most, it stays there: a lookup every key
		c.spill++
	}
}

// release notes a prefix of tag t that leaves the table. When another prefix of the same
// tag spilled, its tag is the one that goes: spill then stays nonzero.
func (c *cell) release(t uint8) {
	if i := slices.Index(c.tags[:], t); i >= 0 {
		c.tags[i] = 0
	} else if c.spill < math.MaxUint8 {
		c.spill--
	}
}

// tagOf is the part of a prefix's hash a cell keeps, never 0.
func tagOf(h uint64) uint8 { return max(uint8(h>>56), 1) }

// unlistedCells is the size of prefixes.unlisted: 256 KiB.
const unlistedCells = 1 << 14

// counted is one prefix's figures in the table.
type counted struct {
	Prefix
	idx  int    // in heap
	hash uint64 // of Prefix.Prefix
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
		unlisted: make([]cell, unlistedCells), enter: math.MaxInt64, seed: maphash.MakeSeed()}
}

// restrict makes p count only the prefixes of only (a second pass), the others in total alone.
func (p *prefixes) restrict(only []string) {
	p.restricted = true
	for _, pre := range only {
		p.hold(pre, maphash.String(p.seed, pre))
	}
}

// hold puts a new entry for pre, of hash h, in the table.
func (p *prefixes) hold(pre string, h uint64) *counted {
	e := &counted{Prefix: Prefix{Prefix: pre}, idx: -1, hash: h}
	p.by[pre] = e
	p.unlisted[h&(unlistedCells-1)].hold(tagOf(h))
	return e
}

// prefix returns key's prefix: its first Depth parts and the separator after them.
func (p *prefixes) prefix(key []byte) []byte {
	end := 0
	if len(p.sep) == 1 { // the usual ":", without bytes.Index's dispatch at every key
		for range p.opts.Depth {
			i := bytes.IndexByte(key[end:], p.sep[0])
			if i < 0 {
				return key
			}
			end += i + 1
		}
		return key[:end]
	}
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
// unlisted; when that sum passes twice the entry of least memory, m, the prefix takes m's
// place, starting from the sum (filtered Space-Saving), and m's memory goes to m's cell.
// Every entry's Memory is then at least its prefix's own, by at most MemoryError, and a
// prefix not in the table holds at most maxCell. Entering at twice the least rather than
// past it keeps a dump of many alike prefixes from changing the table at most keys.
func (p *prefixes) add(key []byte, size, mem int64) {
	p.total.Keys++
	p.total.Bytes += size
	p.total.Memory += mem
	pre := p.prefix(key)
	h := maphash.Bytes(p.seed, pre)
	c := &p.unlisted[h&(unlistedCells-1)]
	var e *counted
	if c.has(tagOf(h)) {
		e = p.by[string(pre)]
	}
	if e == nil {
		switch {
		case p.restricted:
			return
		case len(p.by) < maxPrefixes(p.opts.Top):
			e = p.hold(string(pre), h)
		case c.sum+mem <= p.enter:
			c.sum += mem
			p.maxCell = max(p.maxCell, c.sum)
			p.full()
			return
		default:
			p.full()
			e = p.replace(pre, h, c.sum)
		}
	}
	e.Keys++
	e.Bytes += size
	e.Memory += mem
	if e.idx >= 0 {
		p.heap.fix(e.idx)
		p.enter = 2 * p.heap.least().Memory
	}
}

// full notes that the table is full and orders it, the first time a new prefix finds it so.
func (p *prefixes) full() {
	if p.heap == nil {
		p.overflowed = true
		p.heap = newMinMemory(p.by)
		p.enter = 2 * p.heap.least().Memory
	}
}

// replace puts pre, of hash h and whose cell holds sum, in place of the least entry, whose
// memory goes to its own cell so that the cell still bounds it.
func (p *prefixes) replace(pre []byte, h uint64, sum int64) *counted {
	e := p.heap.least()
	out := &p.unlisted[e.hash&(unlistedCells-1)]
	out.sum = max(out.sum, e.Memory)
	p.maxCell = max(p.maxCell, out.sum)
	out.release(tagOf(e.hash))
	delete(p.by, e.Prefix.Prefix)
	e.Prefix = Prefix{Prefix: string(pre), Memory: sum, MemoryError: sum}
	e.hash = h
	p.by[e.Prefix.Prefix] = e
	p.unlisted[h&(unlistedCells-1)].hold(tagOf(h))
	return e
}

// bound returns the most estimated memory a prefix missing from the table may hold: 0
// before the table was full.
func (p *prefixes) bound() int64 { return p.maxCell }

// plan tells, once the table was full, what a second pass over the file may give:
//   - exact: the Top entries of most memory are exact (met before the table was full and
//     never given up) and hold more than any other prefix may: no second pass is needed;
//   - again: some entry holds more, counting only the keys met since it entered, than any
//     prefix out of the table may: a second pass counts the entries exactly. Otherwise no
//     entry is known to stand out of the dump's many prefixes, and a second pass could
//     tell none apart either.
func (p *prefixes) plan() (exact, again bool) {
	rows := p.sorted()
	top := rows[:min(p.opts.Top, len(rows))]
	exact = true
	for _, e := range top {
		exact = exact && e.MemoryError == 0
	}
	if len(top) > 0 && len(rows) > len(top) {
		exact = exact && top[len(top)-1].Memory >= rows[len(top)].Memory
	}
	if len(top) > 0 {
		exact = exact && top[len(top)-1].Memory >= p.maxCell
	}
	for _, e := range rows {
		again = again || e.Memory-e.MemoryError > p.maxCell
	}
	return exact, again
}

// listNone makes result list no prefix but "other", and returns the most estimated memory
// any prefix may hold: no entry stands out (see plan).
func (p *prefixes) listNone() int64 {
	p.none = true
	most := p.maxCell
	for _, e := range p.by {
		most = max(most, e.Memory)
	}
	return most
}

// candidates returns the prefixes the table holds, for an exact second count.
func (p *prefixes) candidates() []string {
	only := make([]string, 0, len(p.by))
	for pre := range p.by {
		only = append(only, pre)
	}
	return only
}

// sorted returns the entries by memory (then keys, then name), leaving out those a second
// pass did not meet.
func (p *prefixes) sorted() []Prefix {
	all := make([]Prefix, 0, len(p.by))
	for _, e := range p.by {
		if e.Keys > 0 {
			all = append(all, e.Prefix)
		}
	}
	slices.SortFunc(all, func(a, b Prefix) int {
		return cmp.Or(cmp.Compare(b.Memory, a.Memory), cmp.Compare(b.Keys, a.Keys), cmp.Compare(a.Prefix, b.Prefix))
	})
	return all
}

// result returns the Top prefixes by memory (then keys, then name), and "other" when any
// key is left: rows that add up to every key.
func (p *prefixes) result() []Prefix {
	if p.opts.Top < 0 {
		return nil
	}
	var out []Prefix
	if !p.none {
		all := p.sorted()
		out = all[:min(p.opts.Top, len(all))]
	}
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
