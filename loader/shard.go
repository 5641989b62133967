package loader

import (
	"context"
	"fmt"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/record"
)

// A shardSource is the source of a load of one shard (Options.Shard): the records of the
// load's source whose keys the shard's primary owns, through a cluster.Filter that counts
// the keys it kept.
type shardSource struct {
	record.Source
	layout *cluster.Layout
	index  int
	filter *cluster.Filter // the last WriteTo's
}

// newShardSource makes the source of l a shardSource of Options.Shard, a primary of layout;
// an index out of range is an error naming the number of primaries.
func newShardSource(l *load, layout *cluster.Layout) (*shardSource, error) {
	i := *l.o.Shard
	if n := layout.Len(); n != l.o.Shards {
		return nil, fmt.Errorf("shard %d of %d: the cluster of %s has %d primaries, and each needs a shard of its own: run the job with %d shards (its completions and --shard-count)",
			i, l.o.Shards, l.o.Addr, n, n)
	}
	s := &shardSource{Source: l.src, layout: layout, index: i}
	l.src = s
	return s, nil
}

// WriteTo writes the shard's records into sink.
func (s *shardSource) WriteTo(ctx context.Context, sink record.Sink) error {
	f, err := cluster.NewFilter(sink, s.layout, s.index)
	if err != nil {
		return err
	}
	s.filter = f
	return s.Source.WriteTo(ctx, f)
}
