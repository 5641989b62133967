package cluster

import (
	"strconv"
	"sync"
)

// slotTags holds, for each slot, a short string that hashes to it; built on first use.
var slotTags = sync.OnceValue(func() *[Slots]string {
	var t [Slots]string
	left := Slots
	for i := 0; left > 0; i++ {
		s := strconv.FormatInt(int64(i), 36)
		slot := crc16([]byte(s)) & (Slots - 1)
		if t[slot] == "" {
			t[slot] = s
			left--
		}
	}
	return &t
})

// SlotTag returns a short string of digits and lower-case letters whose slot is slot: a key
// holding it between braces, "{tag}…", lands in that slot, whatever else it holds.
func SlotTag(slot int) string { return slotTags()[slot&(Slots-1)] }
