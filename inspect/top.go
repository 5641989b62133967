package inspect

import (
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
	"slices"

	"github.com/rdbgen/rdbgen/record"
)

// keyInfo is a key the sink has read; key is the sink's scratch until it is kept.
type keyInfo struct {
	db      int
	key     []byte
	typ     record.Type
	enc     string
	size    int64
	members uint64
	expire  int64
}

// ranked is a key kept by a topKeys, with the value it is ranked by.
type ranked struct {
	keyInfo
	value int64
}

// less orders ranked keys from smallest to largest: by value, then by db and key, the
// larger db and key counting as smaller, so that ties list in db and key order.
func less(a, b *ranked) bool {
	if a.value != b.value {
		return a.value < b.value
	}
	if a.db != b.db {
		return a.db > b.db
	}
	return compareKeys(a.key, b.key) > 0
}

// compareKeys is bytes.Compare, faster for the short names most keys have: eight bytes at
// a time, the last eight of the shorter name read again where they overlap the ones
// already found equal.
func compareKeys(a, b []byte) int {
	n := min(len(a), len(b))
	if n < 8 || n > 64 {
		return bytes.Compare(a, b)
	}
	for i := 0; ; i += 8 {
		if i+8 > n {
			i = n - 8
		}
		x, y := binary.BigEndian.Uint64(a[i:]), binary.BigEndian.Uint64(b[i:])
		if x != y {
			return cmp.Compare(x, y)
		}
		if i+8 == n {
			return cmp.Compare(len(a), len(b))
		}
	}
}

// topKeys keeps the n largest keys it is given: a min-heap of n, so memory is bounded by n
// and a key is copied only when it enters.
type topKeys struct {
	n    int
	keys []*ranked
}

func (t *topKeys) Len() int           { return len(t.keys) }
func (t *topKeys) Less(i, j int) bool { return less(t.keys[i], t.keys[j]) }
func (t *topKeys) Swap(i, j int)      { t.keys[i], t.keys[j] = t.keys[j], t.keys[i] }
func (t *topKeys) Push(x any)         { t.keys = append(t.keys, x.(*ranked)) }
func (t *topKeys) Pop() any {
	x := t.keys[len(t.keys)-1]
	t.keys = t.keys[:len(t.keys)-1]
	return x
}

// admits reports whether a key of db and name key, ranked by value, would enter (as add
// decides): asked first, so that a key that would not costs no keyInfo.
func (t *topKeys) admits(db int, key []byte, value int64) bool {
	if len(t.keys) < t.n {
		return true
	}
	if len(t.keys) == 0 { // n is 0
		return false
	}
	low := t.keys[0]
	switch {
	case value != low.value:
		return value > low.value
	case db != low.db:
		return db < low.db
	}
	return compareKeys(key, low.key) < 0
}

// add offers k, ranked by value.
func (t *topKeys) add(k keyInfo, value int64) {
	if t.n <= 0 {
		return
	}
	if len(t.keys) < t.n {
		c := &ranked{k, value}
		c.key = bytes.Clone(k.key)
		heap.Push(t, c)
		return
	}
	low := t.keys[0]
	if c := (ranked{k, value}); !less(low, &c) {
		return
	}
	key := low.key
	low.keyInfo, low.value = k, value
	low.key = append(key[:0], k.key...)
	heap.Fix(t, 0)
}

// sorted returns the keys kept, largest first.
func (t *topKeys) sorted() []Key {
	ks := slices.Clone(t.keys)
	slices.SortFunc(ks, func(a, b *ranked) int {
		if less(a, b) {
			return 1
		}
		if less(b, a) {
			return -1
		}
		return 0
	})
	out := make([]Key, len(ks))
	for i, k := range ks {
		out[i] = Key{DB: k.db, Key: string(k.key), Type: k.typ, Encoding: k.enc, Bytes: k.size, Members: k.members, ExpireAtMS: k.expire}
	}
	return out
}
