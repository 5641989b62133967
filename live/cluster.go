package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// ErrNotCluster is a server that is not a node of a Redis Cluster, read as one.
var ErrNotCluster = errors.New("live: not a cluster node")

// A ClusterSource is every primary of a Redis Cluster as one record.Source: the primaries
// that CLUSTER NODES names as owning slots, in the order of their slots, each read as a
// Source reads a server (Sync, or Scan), several at a time (Parallel), their keys
// interleaved whole. Each primary's snapshot is its own point in time: the whole is not
// one snapshot of the cluster.
//
// Every primary holds database 0 alone, opened once in the sink. Function libraries belong
// to no slot and are loaded into every primary: a library that primaries hold alike is
// written once; a primary's library that another holds with other code is an error, and
// with SameFunctions, so is a library that some primaries lack.
type ClusterSource struct {
	// SameFunctions makes a library that not every primary holds an error, naming the
	// primary that lacks it: for shard files, into each of which the sink writes every
	// library. Without it, the libraries of all primaries are written, each once.
	SameFunctions bool
	// Parallel is how many primaries are read at a time: default DefaultParallel, 1 for one
	// after another. Each reading holds its reader's buffers.
	Parallel int
	// OnDuplicate decides a key that two primaries hold, as readers of dumps decide a key
	// that comes twice: record.DupError (also ""), an error wrapping record.ErrDuplicateKey
	// naming the key and both primaries. Under DupFirst and DupLast the copy of the primary
	// that owns the key's slot (the Layout's, as CLUSTER NODES gave it), the copy clients
	// read, is kept and the others are stale copies (an interrupted resharding), left out;
	// only for a key that the slot's owner does not hold (a migration's copies on other
	// primaries) do they choose by the order of Primaries: DupFirst the first primary's
	// copy, DupLast the last's. Every primary is then read twice, first for its keys. The
	// keys are remembered as record.KeySet does (32 to 64 bytes a key).
	OnDuplicate record.OnDuplicate
	// AllowMovingSlots reads on when slots move between primaries during the reading (a
	// resharding), counting them (MovingSlots), instead of stopping with a *SlotsError:
	// their keys may be missing or read twice (see slots.go).
	AllowMovingSlots bool

	seed      Address
	opts      Options
	layout    *cluster.Layout
	primaries []*Source
	stats     decoder.Stats
	moving    map[int]bool // the slots that moved during the last WriteTo, with AllowMovingSlots
	mu        sync.Mutex   // serializes the callbacks of the primaries' readings, and moving
}

// DefaultParallel is how many primaries a ClusterSource reads at a time by default: a
// primary's own snapshot (a fork, and the repl-diskless-sync-delay of 5 s by default) then
// overlaps the others'.
const DefaultParallel = 4

// OpenCluster asks the cluster node that url names for its primaries (CLUSTER NODES) and
// returns a ClusterSource of them, connecting to each with the URL's user, password and
// TLS. A URL naming a database other than 0 is an error wrapping ErrBadURL, a server not
// in cluster mode one wrapping ErrNotCluster.
func OpenCluster(ctx context.Context, url string, opts Options) (*ClusterSource, error) {
	seed, err := Open(url, opts)
	if err != nil {
		return nil, err
	}
	a, opts := seed.addr, seed.opts // the defaults filled in
	if a.DB > 0 {
		return nil, fmt.Errorf("%w %q: a cluster holds database 0 alone", ErrBadURL, a)
	}
	c, err := seed.client(0)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	text, err := c.ClusterNodes(ctx).Result()
	switch {
	case err != nil && strings.Contains(err.Error(), "cluster support disabled"):
		return nil, fmt.Errorf("%w: %s (%v)", ErrNotCluster, a, err)
	case err != nil:
		return nil, fmt.Errorf("CLUSTER NODES at %s: %w", a, err)
	}
	layout, err := cluster.ParseLayout(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("CLUSTER NODES at %s: %w", a, err)
	}
	cs := &ClusterSource{seed: a, opts: opts, layout: layout}
	for i := range layout.Len() {
		pa := a
		pa.DB = -1
		pa.Host = primaryHost(layout.Shard(i).Addr, a.Host)
		po := opts
		if opts.Notice != nil {
			po.Notice = func(msg string) { cs.mu.Lock(); defer cs.mu.Unlock(); opts.Notice(msg) }
		}
		cs.primaries = append(cs.primaries, &Source{addr: pa, opts: po, primary: true})
	}
	return cs, nil
}

// primaryHost returns the host:port of a primary as CLUSTER NODES gives it; a node that
// does not know its own address (":7001", a cluster of one node) is on the seed's host.
func primaryHost(addr, seed string) string {
	if strings.HasPrefix(addr, ":") {
		return seed[:strings.LastIndexByte(seed, ':')] + addr
	}
	return addr
}

// Layout returns the slots of each primary, shard i being Primaries()[i], with the
// primaries' node ids and addresses.
func (cs *ClusterSource) Layout() *cluster.Layout { return cs.layout }

// Primaries returns the addresses of the primaries, in the order they are read.
func (cs *ClusterSource) Primaries() []Address {
	out := make([]Address, len(cs.primaries))
	for i, p := range cs.primaries {
		out[i] = p.addr
	}
	return out
}

// Touched reports whether the last WriteTo read a primary with SCAN and DUMP without
// CLIENT NO-TOUCH, as Source.Touched does.
func (cs *ClusterSource) Touched() bool {
	return slices.ContainsFunc(cs.primaries, (*Source).Touched)
}

// KeyPatterns returns the key patterns of the user that limited the last WriteTo's scans,
// as Source.KeyPatterns does (the first primary's that has them: one user reads them all).
func (cs *ClusterSource) KeyPatterns() []string {
	for _, p := range cs.primaries {
		if p.patterns != nil {
			return p.patterns
		}
	}
	return nil
}

// Outside returns the keys the last WriteTo's scans listed and left out as the user's key
// patterns do not cover them, over the primaries.
func (cs *ClusterSource) Outside() uint64 {
	var n uint64
	for _, p := range cs.primaries {
		n += p.outside
	}
	return n
}

// MovingSlots returns the number of slots that moved between primaries, or were migrating,
// during the last WriteTo, which AllowMovingSlots let it read on through.
func (cs *ClusterSource) MovingSlots() int { return len(cs.moving) }

// Address returns the address of the node the URL named.
func (cs *ClusterSource) Address() Address { return cs.seed }

// Stats returns what the RDB readers saw in the last WriteTo, added up over the primaries
// read so far.
func (cs *ClusterSource) Stats() decoder.Stats { return cs.stats }

// WriteTo reads every primary into sink, Parallel at a time, each key whole before another
// primary's. Progress adds up over the primaries; an error names the primary, and stops the
// others.
func (cs *ClusterSource) WriteTo(ctx context.Context, sink record.Sink) error {
	cs.stats, cs.moving = decoder.Stats{}, nil
	n := len(cs.primaries)
	par := cs.Parallel
	if par <= 0 {
		par = DefaultParallel
	}
	keys := record.NewKeySet()
	par = min(par, n)
	if cs.OnDuplicate == record.DupFirst || cs.OnDuplicate == record.DupLast {
		cs.notice("reading the %d primaries of the cluster of %s for their keys (--on-duplicate %s reads them twice: the copy of the primary that owns a key's slot is kept)", n, cs.seed, cs.OnDuplicate)
		for i, p := range cs.primaries {
			l := &keyLister{keys: keys, i: int64(i), owner: cs.layout.ShardOf, first: cs.OnDuplicate == record.DupFirst}
			var scanned *MovedError // keys a scan listed in slots the primary does not serve
			err := p.WriteTo(ctx, l)
			if errors.As(err, &scanned) {
				err = nil // as readPrimary's: the reading pass meets them again and judges them
			}
			if err != nil {
				if !strings.Contains(err.Error(), p.addr.Host) {
					err = fmt.Errorf("primary %s: %w", p.addr, err)
				}
				return err
			}
		}
	}
	cs.notice("reading the %d primaries of the cluster of %s, %d at a time: each is a snapshot of its own time", n, cs.seed, par)
	j := newJoined(sink, cs.Primaries(), cs.OnDuplicate, keys, cs.layout.ShardOf)
	run, cancel := context.WithCancel(ctx)
	defer cancel()
	progress := make([]record.Progress, n)
	var (
		wg    sync.WaitGroup
		first error // the first primary's error, named
		once  sync.Once
	)
	sem := make(chan struct{}, par)
	for i, p := range cs.primaries {
		p.opts.Progress = func(pr record.Progress) {
			cs.mu.Lock()
			defer cs.mu.Unlock()
			progress[i] = pr
			if cs.opts.Progress != nil {
				var sum record.Progress
				for _, q := range progress {
					sum.Keys, sum.Members, sum.Bytes = sum.Keys+q.Keys, sum.Members+q.Members, sum.Bytes+q.Bytes
				}
				cs.opts.Progress(sum)
			}
		}
		read := func() {
			select {
			case sem <- struct{}{}:
			case <-run.Done():
				return
			}
			defer func() { <-sem }()
			ps := &primarySink{j: j, i: i}
			err := cs.readPrimary(run, p, i, ps)
			ps.release()
			if err != nil && run.Err() == nil {
				if !strings.Contains(err.Error(), p.addr.Host) {
					err = fmt.Errorf("primary %s: %w", p.addr, err)
				}
				once.Do(func() { first = err; cancel() })
			}
		}
		wg.Go(read)
	}
	wg.Wait()
	for _, p := range cs.primaries {
		cs.add(p.Stats())
	}
	cs.stats.Duplicates = j.dropped
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case first != nil:
		return first
	case cs.SameFunctions:
		return j.lacking()
	}
	return nil
}

// readPrimary reads primary p, shard i of the layout, into sink, and asks it for its own
// slots before and after: slots that move meanwhile are an error, or with AllowMovingSlots
// counted.
func (cs *ClusterSource) readPrimary(ctx context.Context, p *Source, i int, sink record.Sink) error {
	before, err := cs.ownSlots(ctx, p, i)
	if err != nil {
		return err
	}
	var scanned *MovedError // a scan's keys in slots that moved away
	if err := p.WriteTo(ctx, sink); errors.As(err, &scanned) {
		before = append(before, scanned.Slots...)
	} else if err != nil {
		return err
	}
	after, err := cs.ownSlots(ctx, p, i)
	if err != nil {
		return err
	}
	moved := slices.Compact(slices.Sorted(slices.Values(append(before, after...))))
	if len(moved) == 0 {
		return nil
	}
	if !cs.AllowMovingSlots {
		return &SlotsError{Primary: p.addr, Slots: moved}
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.moving == nil {
		cs.moving = map[int]bool{}
	}
	for _, s := range moved {
		cs.moving[s] = true
	}
	return nil
}

// add adds the reader's counts of one primary to the source's.
func (cs *ClusterSource) add(s decoder.Stats) {
	t := &cs.stats
	t.Keys += s.Keys
	t.Expires += s.Expires
	t.Members += s.Members
	t.Empty += s.Empty
	t.Bytes += s.Bytes
	t.SlotImports += s.SlotImports
	t.Types = addCounts(t.Types, s.Types)
	t.Modules, t.ModuleAux = addCounts(t.Modules, s.Modules), addCounts(t.ModuleAux, s.ModuleAux)
}

func addCounts(to, from map[string]uint64) map[string]uint64 {
	for k, v := range from {
		if to == nil {
			to = map[string]uint64{}
		}
		to[k] += v
	}
	return to
}

func (cs *ClusterSource) notice(format string, args ...any) {
	if cs.opts.Notice != nil {
		cs.opts.Notice(fmt.Sprintf(format, args...))
	}
}

var _ record.Source = (*ClusterSource)(nil)
