package localcluster

import (
	"context"
	"fmt"
	"strings"
)

// Migrate begins moving slot from node from to node to, as redis-cli --cluster reshard
// does: to IMPORTING it, from MIGRATING it, then keys (of the slot, on from) sent over with
// MIGRATE. The slot stays migrating: Settle ends it.
func Migrate(ctx context.Context, slot int, from, to *Node, keys ...string) error {
	host, port, _ := strings.Cut(to.Addr, ":")
	steps := []struct {
		n    *Node
		args []any
	}{
		{to, []any{"CLUSTER", "SETSLOT", slot, "IMPORTING", from.ID}},
		{from, []any{"CLUSTER", "SETSLOT", slot, "MIGRATING", to.ID}},
	}
	if len(keys) > 0 {
		migrate := []any{"MIGRATE", host, port, "", 0, 5000, "KEYS"}
		for _, k := range keys {
			migrate = append(migrate, k)
		}
		steps = append(steps, struct {
			n    *Node
			args []any
		}{from, migrate})
	}
	for _, s := range steps {
		if err := s.n.Client().Do(ctx, s.args...).Err(); err != nil {
			return fmt.Errorf("%v at %s: %w", s.args, s.n.Addr, err)
		}
	}
	return nil
}

// Settle ends the migration of slot to node to: every node of c is told that to owns it.
func (c *Cluster) Settle(ctx context.Context, slot int, to *Node) error {
	for _, n := range c.Nodes {
		if err := n.Client().Do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", to.ID).Err(); err != nil {
			return fmt.Errorf("CLUSTER SETSLOT %d NODE at %s: %w", slot, n.Addr, err)
		}
	}
	return nil
}
