package loader

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// cluster loads into the Redis Cluster that Addr is a node of: it reads the slots'
// primaries with CLUSTER SLOTS, opens a conduit to each, and sends each record to its
// slot's primary. It returns the counts of each primary.
func (l *load) cluster(ctx context.Context) (time.Duration, map[string]record.Counts, error) {
	version, err := l.probe(ctx, l.o.Addr)
	if err != nil {
		return 0, nil, err
	}
	layout, err := l.slots(ctx)
	if err != nil {
		return 0, nil, err
	}
	r := &router{layout: layout, mapDB: l.o.MapDB}
	counts := make([]*nodeCounts, layout.Len())
	var conduits []conduit
	var watches []*bulkWatch
	defer func() {
		for _, c := range conduits {
			c.close()
		}
	}()
	var shard *shardSource // Options.Shard's records alone, or nil for all
	if l.o.Shard != nil {
		if shard, err = newShardSource(l, layout); err != nil {
			return 0, nil, err
		}
	}
	for i, s := range layout.Shards() {
		counts[i] = &nodeCounts{}
		if shard != nil && i != shard.index {
			r.nodes = append(r.nodes, nil) // another process's primary
			continue
		}
		if l.o.Method == Auto {
			if err := l.probeAuto(ctx, s.Addr, s.Ranges[0].First, version); err != nil {
				return 0, nil, fmt.Errorf("node %s: %w", s.Addr, err)
			}
		}
		c, err := l.open(ctx, s.Addr, counts[i])
		if err != nil {
			return 0, nil, fmt.Errorf("node %s: %w", s.Addr, err)
		}
		conduits = append(conduits, c)
		cmds, watch, err := l.commands(ctx, c.emit, s.Addr, version)
		if err != nil {
			return 0, nil, err
		}
		watches = append(watches, watch)
		defer l.addStreams(cmds)
		r.nodes = append(r.nodes, cmds)
	}
	var addrs []string // where function libraries go: every primary this load writes to
	for i, s := range layout.Shards() {
		if shard == nil || i == shard.index {
			addrs = append(addrs, s.Addr)
		}
	}
	start := time.Now()
	srcErr := l.src.WriteTo(ctx, l.withFunctions(ctx, l.skipUnsupported(r, version), version, addrs))
	var failed []error
	for _, c := range conduits {
		if err := c.finish(); err != nil {
			failed = append(failed, err)
		}
	}
	took := time.Since(start)
	nodes := make(map[string]record.Counts, len(counts))
	for i, s := range layout.Shards() {
		if shard != nil && i != shard.index {
			continue
		}
		nodes[s.Addr] = record.Counts{Keys: counts[i].keys.Load(), Expires: counts[i].expires.Load()}
	}
	err = explainBulk(l.end(errors.Join(failed...), srcErr), watches...)
	if err == nil && shard != nil && l.confirmed.Load()+l.unsupported != shard.filter.Kept {
		err = fmt.Errorf("the server confirmed %d keys (and %d left out), want the shard's %d", l.confirmed.Load(), l.unsupported, shard.filter.Kept)
	}
	return took, nodes, err
}

// slots reads the cluster's layout from the seed: the primary of each slot range.
func (l *load) slots(ctx context.Context) (*cluster.Layout, error) {
	c := redis.NewClient(l.redisOptions(l.o.Addr))
	defer c.Close()
	slots, err := c.ClusterSlots(ctx).Result()
	if err != nil {
		return nil, fmt.Errorf("read the cluster's slots from %s: %w", l.o.Addr, err)
	}
	var shards []cluster.Shard
	index := map[string]int{}
	for _, s := range slots {
		if len(s.Nodes) == 0 {
			return nil, fmt.Errorf("read the cluster's slots from %s: slots %d-%d have no primary", l.o.Addr, s.Start, s.End)
		}
		p := s.Nodes[0]
		i, ok := index[p.Addr]
		if !ok {
			i = len(shards)
			index[p.Addr] = i
			shards = append(shards, cluster.Shard{NodeID: p.ID, Addr: p.Addr})
		}
		shards[i].Ranges = append(shards[i].Ranges, cluster.Range{First: int(s.Start), Last: int(s.End)})
	}
	// Numbered by their first slot, as cluster.ParseLayout numbers them (Options.Shard).
	slices.SortFunc(shards, func(a, b cluster.Shard) int {
		return slices.MinFunc(a.Ranges, byFirst).First - slices.MinFunc(b.Ranges, byFirst).First
	})
	layout, err := cluster.NewLayout(shards)
	if err != nil {
		return nil, fmt.Errorf("the cluster of %s: %w", l.o.Addr, err)
	}
	return layout, nil
}

// byFirst orders slot ranges by their first slot.
func byFirst(a, b cluster.Range) int { return a.First - b.First }

// A router is a record.Sink that hands each record to the commands of its slot's primary.
// Function libraries do not pass through it: the functionLoader that wraps it loads them
// into every primary.
type router struct {
	record.RefuseFunctions
	layout *cluster.Layout
	mapDB  func(int) (int, error) // Options.MapDB
	nodes  []*resp.Commands
	cur    *resp.Commands // the node of the open record
	curAt  int            // its shard
}

// BeginDB opens db 0 on every node; a cluster has no other.
func (r *router) BeginDB(db int, _ record.Counts) error {
	from := db
	if r.mapDB != nil {
		to, err := r.mapDB(db)
		if err != nil {
			return err
		}
		db = to
	}
	if db != 0 {
		return fmt.Errorf("db %d: a cluster has db 0 only: load it into db 0 (an input's database with --db-map %d=0, generated keys with --db 0)", db, from)
	}
	for _, n := range r.nodes {
		if n == nil { // a primary another process loads (Options.Shard)
			continue
		}
		if err := n.BeginDB(db, record.Counts{}); err != nil {
			return err
		}
	}
	return nil
}

// Begin opens a key on its primary, which it makes current.
func (r *router) Begin(h *record.Header) error {
	r.curAt = r.layout.ShardOf(h.Key)
	r.cur = r.nodes[r.curAt]
	return r.where(r.cur.Begin(h))
}

// where names the primary of the open record in err when err is the primary's own limit
// (resp.ErrTooLarge: its proto-max-bulk-len), which is to be raised there.
func (r *router) where(err error) error {
	if errors.Is(err, resp.ErrTooLarge) {
		return fmt.Errorf("primary %s: %w", r.layout.Shard(r.curAt).Addr, err)
	}
	return err
}

// errNoRecord is the error of a member added with no record open.
var errNoRecord = errors.New("no record is open")

// open returns the commands of the open record.
func (r *router) open() (*resp.Commands, error) {
	if r.cur == nil {
		return nil, errNoRecord
	}
	return r.cur, nil
}

// Add adds a member to the open record.
func (r *router) Add(m *record.Member) error {
	c, err := r.open()
	if err != nil {
		return err
	}
	return r.where(c.Add(m))
}

// End closes the open record.
func (r *router) End(t *record.StreamTail) error {
	c, err := r.open()
	if err != nil {
		return err
	}
	err = r.where(c.End(t))
	r.cur = nil
	return err
}
