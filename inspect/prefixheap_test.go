package inspect

import (
	"math/rand/v2"
	"testing"
)

// TestMinMemoryFix grows random entries of a heap and checks after each fix that every
// parent holds no more memory than its children and that each entry knows its index.
func TestMinMemoryFix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	by := map[string]*counted{}
	for i := range 1000 {
		by[string(rune(i+1))] = &counted{Prefix: Prefix{Memory: r.Int64N(100)}}
	}
	h := newMinMemory(by)
	for range 5000 {
		i := r.IntN(len(h))
		if r.IntN(2) == 0 {
			i = 0 // the entry a full table replaces
		}
		h[i].Memory += r.Int64N(50)
		h.fix(i)
		for j, e := range h {
			if e.idx != j {
				t.Fatalf("entry at %d knows index %d", j, e.idx)
			}
			if j > 0 && h[(j-1)/2].Memory > e.Memory {
				t.Fatalf("parent of %d holds %d > %d", j, h[(j-1)/2].Memory, e.Memory)
			}
		}
	}
}

// TestCellTags holds more prefixes in one cell than it has tags, some of one tag, and
// releases them in turn: a tag held is always found, and an empty cell finds none.
func TestCellTags(t *testing.T) {
	for _, tags := range [][]uint8{
		{5},
		{1, 2, 3, 4, 5, 6, 7},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		{9, 9, 9, 9, 9, 9, 9, 9, 9},
		{3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3},
	} {
		var c cell
		for _, tg := range tags {
			c.hold(tg)
		}
		for i, tg := range tags {
			for _, held := range tags[i:] {
				if !c.has(held) {
					t.Fatalf("%v: tag %d held but not found after %d releases", tags, held, i)
				}
			}
			c.release(tg)
		}
		if c != (cell{}) {
			t.Fatalf("%v: every tag released, cell %+v", tags, c)
		}
		if c.has(tags[0]) {
			t.Fatalf("%v: empty cell finds a tag", tags)
		}
	}
}
