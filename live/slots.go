package live

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/cluster"
)

// Slots that move while a cluster is read. Each primary is read at its own time: a key that
// moves from a primary read later to one read earlier (MIGRATE, during a resharding) is in
// neither snapshot. So each primary is asked for its own view of its slots (the "myself" line
// of CLUSTER NODES: the slots it owns, and those it is migrating or importing, "[slot->-id]",
// "[slot-<-id]") before and after its snapshot, and that view is compared with the layout
// the reading began with: a slot that is moving, or owned by another primary than then, is
// unstable, and its keys may be missing from the output or in it twice.

// ownView is what a primary says of its own slots.
type ownView struct {
	owned  [cluster.Slots]bool
	moving []int // the slots it is migrating or importing
}

// parseOwnView reads the "myself" line of CLUSTER NODES text.
func parseOwnView(text string) (ownView, error) {
	var v ownView
	for line := range strings.Lines(text) {
		fields := strings.Fields(line)
		if len(fields) < 8 || !slices.Contains(strings.Split(fields[2], ","), "myself") {
			continue
		}
		for _, f := range fields[8:] {
			if marker, ok := strings.CutPrefix(f, "["); ok {
				n, _, _ := strings.Cut(marker, "-")
				slot, err := strconv.Atoi(n)
				if err != nil || slot < 0 || slot >= cluster.Slots {
					return v, fmt.Errorf("%w: slot marker %q", cluster.ErrLayout, f)
				}
				v.moving = append(v.moving, slot)
				continue
			}
			r, err := cluster.ParseRange(f)
			if err != nil {
				return v, err
			}
			for s := r.First; s <= r.Last; s++ {
				v.owned[s] = true
			}
		}
		return v, nil
	}
	return v, fmt.Errorf("%w: no line of CLUSTER NODES is the node's own (myself)", cluster.ErrLayout)
}

// unstable returns the slots that v shows moving, or owned otherwise than shard i of
// layout.
func (v ownView) unstable(layout *cluster.Layout, i int) []int {
	out := slices.Clone(v.moving)
	s := layout.Shard(i)
	for slot := range cluster.Slots {
		if v.owned[slot] != s.Owns(slot) {
			out = append(out, slot)
		}
	}
	return out
}

// ownSlots asks primary p for its view of its slots and returns the unstable ones, shard i
// of the layout being p's.
func (cs *ClusterSource) ownSlots(ctx context.Context, p *Source, i int) ([]int, error) {
	c, err := p.client(0)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	text, err := c.ClusterNodes(ctx).Result()
	if err != nil {
		return nil, fmt.Errorf("CLUSTER NODES at %s: %w", p.addr, err)
	}
	v, err := parseOwnView(text)
	if err != nil {
		return nil, fmt.Errorf("CLUSTER NODES at %s: %w", p.addr, err)
	}
	return v.unstable(cs.layout, i), nil
}

// SlotsError is the error of a cluster reading during which slots moved between primaries:
// their keys may be missing from the output, or in it twice.
type SlotsError struct {
	Primary Address
	Slots   []int // sorted, each once
}

func (e *SlotsError) Error() string {
	return fmt.Sprintf("primary %s: %s migrating or moved while the cluster was read: their keys may be missing or read twice; read it again once the resharding is over (CLUSTER NODES shows no [slot->-id] marker), or accept it with --allow-moving-slots",
		e.Primary, slotList(e.Slots))
}

// slotList names slots for a person: "slot 5" or "slots 1-3, 7 (4 slots)".
func slotList(slots []int) string {
	if len(slots) == 1 {
		return "slot " + strconv.Itoa(slots[0])
	}
	var parts []string
	for i := 0; i < len(slots); {
		j := i
		for j+1 < len(slots) && slots[j+1] == slots[j]+1 {
			j++
		}
		parts = append(parts, cluster.Range{First: slots[i], Last: slots[j]}.String())
		i = j + 1
	}
	return fmt.Sprintf("slots %s (%d slots)", strings.Join(parts, ", "), len(slots))
}
