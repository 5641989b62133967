package localcluster

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/cluster"
)

// join gives every unclaimed slot to its planned node, has the nodes meet, and waits until
// every node reports cluster_state:ok.
func (c *Cluster) join(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var claimed [cluster.Slots]bool
	for _, n := range c.Nodes {
		rc := n.Client()
		id, err := rc.ClusterMyID(ctx).Result()
		if err != nil {
			return fmt.Errorf("join cluster: node %s: %w", n.Addr, err)
		}
		n.ID = id
		// Before it meets the others a node knows only itself: every slot it lists is one
		// it claimed when it loaded its keys.
		slots, err := rc.ClusterSlots(ctx).Result()
		if err != nil {
			return fmt.Errorf("join cluster: node %s: %w", n.Addr, err)
		}
		for _, s := range slots {
			n.Claimed = append(n.Claimed, cluster.Range{First: int(s.Start), Last: int(s.End)})
			for slot := s.Start; slot <= s.End; slot++ {
				claimed[slot] = true
			}
		}
	}
	for i, n := range c.Nodes {
		if err := addSlots(ctx, n.Client(), unclaimed(n.Planned, &claimed)); err != nil {
			return fmt.Errorf("join cluster: node %s: %w", n.Addr, err)
		}
		// Distinct config epochs spare the nodes a round of collisions when they meet, as
		// redis-cli --cluster create does; a node that claimed slots may refuse, harmlessly.
		_ = n.Client().Do(ctx, "CLUSTER", "SET-CONFIG-EPOCH", i+1).Err()
	}
	first := c.Nodes[0]
	for _, n := range c.Nodes[1:] {
		host, port, _ := strings.Cut(n.Addr, ":")
		if err := first.Client().Do(ctx, "CLUSTER", "MEET", host, port, n.BusPort).Err(); err != nil {
			return fmt.Errorf("join cluster: node %s meets %s: %w", first.Addr, n.Addr, err)
		}
	}
	return c.waitOK(ctx)
}

// unclaimed returns the slots of planned that no node claimed, as ranges.
func unclaimed(planned []cluster.Range, claimed *[cluster.Slots]bool) []cluster.Range {
	var out []cluster.Range
	for _, r := range planned {
		for slot := r.First; slot <= r.Last; slot++ {
			if claimed[slot] {
				continue
			}
			if k := len(out) - 1; k >= 0 && out[k].Last == slot-1 {
				out[k].Last = slot
			} else {
				out = append(out, cluster.Range{First: slot, Last: slot})
			}
		}
	}
	return out
}

// addSlots assigns ranges to the node of rc: with CLUSTER ADDSLOTSRANGE (Redis 7.0 and
// later), else with CLUSTER ADDSLOTS.
func addSlots(ctx context.Context, rc *redis.Client, ranges []cluster.Range) error {
	if len(ranges) == 0 {
		return nil
	}
	args := []any{"CLUSTER", "ADDSLOTSRANGE"}
	for _, r := range ranges {
		args = append(args, r.First, r.Last)
	}
	err := rc.Do(ctx, args...).Err()
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "unknown subcommand") {
		return err
	}
	var slots []int
	for _, r := range ranges {
		for s := r.First; s <= r.Last; s++ {
			slots = append(slots, s)
		}
	}
	return rc.ClusterAddSlots(ctx, slots...).Err()
}

// waitOK polls every node until each reports cluster_state:ok, knows every node and sees
// every slot assigned.
func (c *Cluster) waitOK(ctx context.Context) error {
	want := map[string]string{
		"cluster_state":          "ok",
		"cluster_slots_assigned": strconv.Itoa(cluster.Slots),
		"cluster_known_nodes":    strconv.Itoa(len(c.Nodes)),
	}
	for {
		var last string
		ready := true
		for _, n := range c.Nodes {
			info, err := n.Client().ClusterInfo(ctx).Result()
			if err != nil {
				last = fmt.Sprintf("node %s: %v", n.Addr, err)
				ready = false
				break
			}
			if bad := infoDiffers(info, want); bad != "" {
				last = fmt.Sprintf("node %s reports %s", n.Addr, bad)
				ready = false
				break
			}
		}
		if ready {
			return nil
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("join cluster: the nodes did not agree in time: %s", last)
			}
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// infoDiffers returns the first field of CLUSTER INFO that differs from want, as
// "field:value", or "".
func infoDiffers(info string, want map[string]string) string {
	got := map[string]string{}
	for line := range strings.Lines(info) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		got[k] = v
	}
	for _, k := range []string{"cluster_known_nodes", "cluster_slots_assigned", "cluster_state"} {
		if got[k] != want[k] {
			return k + ":" + got[k]
		}
	}
	return ""
}
