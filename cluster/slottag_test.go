package cluster

import "testing"

// TestSlotTag checks every slot's tag, as a hash tag, against Slot.
func TestSlotTag(t *testing.T) {
	for slot := range Slots {
		tag := SlotTag(slot)
		if tag == "" || len(tag) > 4 {
			t.Fatalf("slot %d: tag %q", slot, tag)
		}
		if got := Slot([]byte("{" + tag + "}rest{x}")); got != slot {
			t.Fatalf("slot %d: {%s} is in slot %d", slot, tag, got)
		}
	}
}
