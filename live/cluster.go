package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// ErrNotCluster is a server that is not a node of a Redis Cluster, read as one.
var ErrNotCluster = errors.New("live: not a cluster node")

// A ClusterSource is every primary of a Redis Cluster as one record.Source: the primaries
// that CLUSTER NODES names as owning slots, read one after another, each as a Source reads
// a server (Sync, or Scan), in the order of their slots. Each primary's snapshot is its own
// point in time: the whole is not one snapshot of the cluster.
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

	seed      Address
	opts      Options
	layout    *cluster.Layout
	primaries []*Source
	stats     decoder.Stats
}

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
		cs.primaries = append(cs.primaries, &Source{addr: pa, opts: opts})
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

// Address returns the address of the node the URL named.
func (cs *ClusterSource) Address() Address { return cs.seed }

// Stats returns what the RDB readers saw in the last WriteTo, added up over the primaries
// read so far.
func (cs *ClusterSource) Stats() decoder.Stats { return cs.stats }

// WriteTo reads every primary into sink, one after another. Progress adds up over the
// primaries; an error names the primary.
func (cs *ClusterSource) WriteTo(ctx context.Context, sink record.Sink) error {
	cs.stats = decoder.Stats{}
	n := len(cs.primaries)
	cs.notice("reading the %d primaries of the cluster of %s one after another: each is a snapshot of its own time", n, cs.seed)
	j := &joined{Pass: record.Pass{Next: sink}, cs: cs, open: -1, libs: map[string]library{}}
	var done record.Progress
	for i, p := range cs.primaries {
		var last record.Progress
		p.opts.Progress = func(pr record.Progress) {
			last = pr
			if cs.opts.Progress != nil {
				cs.opts.Progress(record.Progress{Keys: done.Keys + pr.Keys, Members: done.Members + pr.Members, Bytes: done.Bytes + pr.Bytes})
			}
		}
		j.primary, j.index = p.addr, i
		j.held = map[string]bool{}
		err := p.WriteTo(ctx, j)
		cs.add(p.Stats())
		if err == nil {
			err = j.lacking()
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if !strings.Contains(err.Error(), p.addr.Host) {
				err = fmt.Errorf("primary %s: %w", p.addr, err)
			}
			return err
		}
		done.Keys, done.Members, done.Bytes = done.Keys+last.Keys, done.Members+last.Members, done.Bytes+last.Bytes
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

// A library is a function library a primary holds: its code, and the primary that first
// gave it.
type library struct {
	code []byte
	from Address
}

// joined passes the records of every primary on into one sink: database 0 opened once,
// each library once.
type joined struct {
	record.Pass
	cs      *ClusterSource
	open    int // the database open in the sink, -1 before the first
	primary Address
	index   int
	libs    map[string]library // by name, every library written
	held    map[string]bool    // the libraries the primary being read holds
}

// BeginDB opens db in the sink unless it is open already: the primaries' databases 0 are
// one. Their counts are not the whole's: the sink gets none.
func (j *joined) BeginDB(db int, _ record.Counts) error {
	if db == j.open {
		return nil
	}
	j.open = db
	return j.Next.BeginDB(db, record.Counts{})
}

// WriteFunction writes a library the first time a primary gives it.
func (j *joined) WriteFunction(code []byte) error {
	name, err := record.LibraryName(code)
	if err != nil {
		return fmt.Errorf("%s: %w", record.LibraryLabel(code), err)
	}
	j.held[name] = true
	if l, ok := j.libs[name]; ok {
		if !bytes.Equal(l.code, code) {
			return fmt.Errorf("%s differs between the primaries %s and %s", record.LibraryLabel(code), l.from, j.primary)
		}
		return nil
	}
	if j.index > 0 && j.cs.SameFunctions {
		return fmt.Errorf("%s is on primary %s and not on %s: a shard file gets every library (load it into every primary, or write one file)",
			record.LibraryLabel(code), j.primary, j.cs.primaries[0].addr)
	}
	j.libs[name] = library{code: bytes.Clone(code), from: j.primary}
	return j.Next.WriteFunction(code)
}

// lacking returns, with SameFunctions, the error of a library that the primary just read
// does not hold.
func (j *joined) lacking() error {
	if !j.cs.SameFunctions {
		return nil
	}
	for name, l := range j.libs {
		if !j.held[name] {
			return fmt.Errorf("function library %q is on primary %s and not on %s: a shard file gets every library (load it into every primary, or write one file)",
				name, l.from, j.primary)
		}
	}
	return nil
}

var _ record.Source = (*ClusterSource)(nil)
