package live

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MovedError is the error of a scan during which the server answered MOVED or ASK for keys
// it had listed: their slots moved to another node while it was read (a resharding), or a
// key was a stale copy in a slot the server does not own. The scan read every other key.
type MovedError struct {
	Server Address
	Keys   uint64 // the keys answered MOVED or ASK, left out
	Slots  []int  // their slots, sorted, each once
}

func (e *MovedError) Error() string {
	return fmt.Sprintf("%s answered MOVED or ASK for %d listed keys, in %s: their slots moved while it was read (a resharding); read it again once the resharding is over",
		e.Server, e.Keys, slotList(e.Slots))
}

// movedSlot returns the slot of a MOVED or ASK reply, and whether err is one.
func movedSlot(err error) (int, bool) {
	if err == nil {
		return 0, false
	}
	f := strings.Fields(err.Error())
	if len(f) < 3 || (f[0] != "MOVED" && f[0] != "ASK") {
		return 0, false
	}
	slot, aerr := strconv.Atoi(f[1])
	return slot, aerr == nil
}

// movedError returns the MovedError of the slots in moved, nil when there are none.
func movedError(server Address, keys uint64, moved map[int]bool) error {
	if keys == 0 {
		return nil
	}
	slots := make([]int, 0, len(moved))
	for s := range moved {
		slots = append(slots, s)
	}
	slices.Sort(slots)
	return &MovedError{Server: server, Keys: keys, Slots: slots}
}
