package live_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/record"
)

// TestClusterMovingSlots reads a three-primary cluster of real redis-servers while one slot
// is being migrated from one primary to another (CLUSTER SETSLOT IMPORTING and MIGRATING,
// half of its keys MIGRATEd), and again once the migration has finished after the reading
// began: each is an error naming the slot and the way out; with AllowMovingSlots the
// reading goes on and counts the slot. The slots of a cluster at rest are not counted.
func TestClusterMovingSlots(t *testing.T) {
	c, layout := servertest.StartCluster(t)
	ctx := t.Context()
	p := c.Client().Pipeline()
	for i := range 200 {
		p.Set(ctx, "{moving}:"+strconv.Itoa(i), i, 0)
		p.Set(ctx, "still:"+strconv.Itoa(i), i, 0)
	}
	if _, err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	slot := cluster.KeySlot("{moving}:0")
	from := c.Nodes[layout.ShardOf([]byte("{moving}:0"))]
	to := c.Nodes[(layout.ShardOf([]byte("{moving}:0"))+1)%3]
	url := "redis://" + c.Nodes[0].Addr
	read := func(allow bool) (*live.ClusterSource, *record.Count, error) {
		cs, err := live.OpenCluster(ctx, url, live.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cs.AllowMovingSlots = allow
		count := &record.Count{}
		return cs, count, cs.WriteTo(ctx, count)
	}
	if cs, count, err := read(false); err != nil || count.Counts.Keys != 400 || cs.MovingSlots() != 0 {
		t.Fatalf("at rest: %v, %d keys, %d moving slots", err, count.Counts.Keys, cs.MovingSlots())
	}

	var half []string
	for i := range 100 {
		half = append(half, "{moving}:"+strconv.Itoa(i))
	}
	if err := localcluster.Migrate(ctx, slot, from, to, half...); err != nil {
		t.Fatal(err)
	}

	wantErr := func(what string, err error) {
		t.Helper()
		var se *live.SlotsError
		if !errors.As(err, &se) || !slices.Equal(se.Slots, []int{slot}) ||
			!strings.Contains(err.Error(), "slot "+strconv.Itoa(slot)+" migrating or moved while the cluster was read") || !strings.Contains(err.Error(), "--allow-moving-slots") {
			t.Fatalf("%s: %v, want a SlotsError naming slot %d", what, err, slot)
		}
	}
	_, _, err := read(false)
	wantErr("migrating", err)
	if cs, count, err := read(true); err != nil || cs.MovingSlots() != 1 || count.Counts.Keys != 400 {
		t.Fatalf("migrating, allowed: %v, %d moving slots, %d keys", err, cs.MovingSlots(), count.Counts.Keys)
	}

	// The migration ends after the reading has begun (its layout taken): the slot's owner
	// is not the one the reading began with.
	cs, err := live.OpenCluster(ctx, url, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	half = half[:0]
	for i := 100; i < 200; i++ {
		half = append(half, "{moving}:"+strconv.Itoa(i))
	}
	if err := localcluster.Migrate(ctx, slot, from, to, half...); err != nil {
		t.Fatal(err)
	}
	if err := c.Settle(ctx, slot, to); err != nil {
		t.Fatal(err)
	}
	wantErr("moved", cs.WriteTo(ctx, &record.Count{}))
}
