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

// fix restores the order after the entry at i grew.
func (h minMemory) fix(i int) { heap.Fix(&h, i) }

func (h minMemory) Len() int           { return len(h) }
func (h minMemory) Less(i, j int) bool { return h[i].Memory < h[j].Memory }
func (h minMemory) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx, h[j].idx = i, j
}
func (h *minMemory) Push(x any) { panic("inspect: the prefix heap has a fixed size") }
func (h *minMemory) Pop() any   { panic("inspect: the prefix heap has a fixed size") }
