package inspect

import "container/heap"

// minMemory is a min-heap of prefix entries by Memory: the entry a full table gives up.
type minMemory []*counted

// newMinMemory returns the entries of by as a heap, each knowing its index.
func newMinMemory(by map[string]*counted) minMemory {
	h := make(minMemory, 0, len(by))
	for _, e := range by {
		e.idx = len(h)
		h = append(h, e)
	}
	heap.Init(&h)
	return h
}

// least returns the entry of least memory.
func (h minMemory) least() *counted { return h[0] }

// fix restores the order after the entry at i grew: an entry's memory never falls, so it
// only sinks. A sift of the concrete type, without container/heap's calls through an
// interface, since a full table of a dump of many prefixes fixes an entry at many keys.
func (h minMemory) fix(i int) {
	e := h[i]
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && h[r].Memory < h[c].Memory {
			c = r
		}
		if h[c].Memory >= e.Memory {
			break
		}
		h[i] = h[c]
		h[i].idx = i
		i = c
	}
	h[i] = e
	e.idx = i
}

func (h minMemory) Len() int           { return len(h) }
func (h minMemory) Less(i, j int) bool { return h[i].Memory < h[j].Memory }
func (h minMemory) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx, h[j].idx = i, j
}
func (h *minMemory) Push(x any) { panic("inspect: the prefix heap has a fixed size") }
func (h *minMemory) Pop() any   { panic("inspect: the prefix heap has a fixed size") }
