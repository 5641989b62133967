package output

import (
	"context"
	"errors"
	"io"
	"slices"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// ErrRESPShards is returned by Shards and Shard given Options.RESP.
var ErrRESPShards = errors.New("output: RESP commands are one stream: they do not split into shard files")

// Shards starts the files of a split of the records by hash slot into dir (created when
// missing): one file per shard of layout, named cluster.ShardFile(i), each with its
// manifest, all put in place together by Commit once every one is complete. Every file
// holds db 0: a record of another db is an error wrapping cluster.ErrDB. Unless opts.Force
// is set, a directory that holds shard files already is an error; with it, Commit removes
// the files beyond the layout. opts.Manifest is not used.
func Shards(dir string, layout *cluster.Layout, opts Options) (*Output, error) {
	if opts.RESP != nil {
		return nil, ErrRESPShards
	}
	now := time.Now()
	files, err := createShards(dir, layout, opts.Force)
	if err != nil {
		return nil, err
	}
	return newShards(files, stamped(opts, now), now)
}

// Shard starts the file of shard index alone of the split that Shards writes, with its
// manifest, in dir (created when missing): one process of a split that many write side by
// side into one directory, each its own shard (a pod of a Kubernetes Indexed Job). It keeps
// the records of its shard's slots. With the same records, layout and options, and the same
// opts.Encoder.CreatedAt (which the processes must share: set it), the file and manifest are
// those of Shards byte for byte. Other shards' files are left alone, Force or not. An index
// out of range is an error naming the number of shards.
func Shard(dir string, layout *cluster.Layout, index int, opts Options) (*Output, error) {
	if opts.RESP != nil {
		return nil, ErrRESPShards
	}
	now := time.Now()
	files, err := createShard(dir, layout, index, opts.Force)
	if err != nil {
		return nil, err
	}
	return newShards(files, stamped(opts, now), now)
}

// A shardsOut is the files of a split being written.
type shardsOut struct {
	files   *shardFiles
	opts    Options
	start   time.Time
	total   uint64
	p       *progress
	raw     []io.Writer // each shard's file; cluster.Discard for a shard not written
	dsts    []io.Writer // raw, metered
	meters  []*meter
	only    []int // the shards written when not all are; nil for all
	w       *cluster.Writer
	filter  *cluster.Filter // with written
	snk     record.Sink
	counted time.Duration
}

// newShards starts the writer of files; on an error, it removes them.
func newShards(files *shardFiles, opts Options, now time.Time) (*Output, error) {
	s := &shardsOut{files: files, opts: opts, total: opts.Total, start: now}
	s.p = newProgress(opts.Progress, &s.total)
	s.raw = files.Writers()
	s.dsts = make([]io.Writer, len(s.raw))
	all := !slices.Contains(s.raw, nil)
	for i, dst := range s.raw {
		if dst == nil {
			s.raw[i], s.dsts[i] = cluster.Discard, cluster.Discard
			continue
		}
		if !all {
			s.only = append(s.only, i)
		}
		var m *meter
		s.dsts[i], m = metered(dst, s.p)
		s.meters = append(s.meters, m)
	}
	// A writer that knows nothing of the records: prepare replaces it with one that does,
	// before anything reached the files.
	if err := s.open(nil, false); err != nil {
		files.Abort()
		return nil, err
	}
	return newOutput(s, files.Dir, &s.total, false), nil
}

// open makes the writer of the files, with each shard's counts (nil: unknown) or its
// header filled in last (fill).
func (s *shardsOut) open(counts []record.Counts, fill bool) error {
	w, err := cluster.NewWriter(s.dsts, s.files.Layout, cluster.WriterOptions{Encoder: s.opts.Encoder, Counts: counts, FillCounts: fill})
	if err != nil {
		return err
	}
	s.w, s.snk = w, w
	if s.p != nil {
		s.p.stats = w.Total
	}
	if s.only != nil {
		f, err := cluster.NewFilter(w, s.files.Layout, s.only...)
		if err != nil {
			return err
		}
		s.filter, s.snk = f, f
		if s.p != nil { // the keys read, out of the source's: each is looked at
			s.p.stats = func() encoder.Stats { st := w.Total(); st.Keys = f.Kept + f.Dropped; return st }
		}
	}
	return nil
}

// prepare gives every file the exact RESIZEDB counts of its shard when src can list its
// keys: filled in last into files, else counted first in a pass over the keys alone. Other
// sources are read once, and their files have no RESIZEDB hint.
func (s *shardsOut) prepare(ctx context.Context, src record.Source) error {
	l, ok := src.(record.KeyLister)
	if !ok {
		return nil
	}
	if cluster.CanFill(s.raw) {
		return s.open(nil, true)
	}
	start := time.Now()
	counts, err := cluster.CountShards(ctx, l, s.files.Layout)
	if err != nil {
		return err
	}
	s.counted = time.Since(start)
	if s.only != nil { // the shards not written get no records: they declare none
		for i := range counts {
			if !slices.Contains(s.only, i) {
				counts[i] = record.Counts{}
			}
		}
	}
	return s.open(counts, false)
}

func (s *shardsOut) sink() record.Sink { return s.snk }
func (s *shardsOut) abort()            { s.files.Abort() }

func (s *shardsOut) written() int64 {
	var n int64
	for _, m := range s.meters {
		n += m.n.Load()
	}
	return n
}

func (s *shardsOut) commit(describe func(*manifest.Manifest)) (*Result, error) {
	if err := s.w.Close(); err != nil {
		return nil, err
	}
	s.p.send()
	layout, stats := s.files.Layout, s.w.Stats()
	res := &Result{Path: s.files.Dir, Target: s.w.Target().Name, RDBVersion: s.w.RDBVersion(), Duration: time.Since(s.start), CountDuration: s.counted}
	var ms []*manifest.Manifest
	for j, i := range s.files.Written() {
		st := stats[i]
		m := newManifest(s.opts.Encoder, res.Target, res.RDBVersion, st, map[int]record.Counts{0: {Keys: st.Keys, Expires: st.Expires}})
		shard := layout.Shard(i)
		m.Cluster = &manifest.Shard{Index: i, Shards: layout.Len(), Slots: shard.Ranges, NodeID: shard.NodeID, Addr: shard.Addr}
		if describe != nil {
			describe(m)
		}
		ms = append(ms, m)
		sr := ShardResult{Index: i, Path: s.files.Paths[j], Stats: st}
		if !s.opts.NoManifest {
			sr.Manifest = manifest.PathFor(sr.Path)
		}
		res.Shards = append(res.Shards, sr)
		t := &res.Stats
		t.Keys, t.Expires, t.Members, t.Bytes = t.Keys+st.Keys, t.Expires+st.Expires, t.Members+st.Members, t.Bytes+st.Bytes
	}
	if s.opts.NoManifest {
		ms = nil
	}
	if res.Stats.Keys > 0 {
		res.DBs = map[int]record.Counts{0: {Keys: res.Stats.Keys, Expires: res.Stats.Expires}}
	}
	var err error
	if res.Removed, err = s.files.Commit(ms); err != nil {
		return nil, err
	}
	res.Stale = s.files.Stale()
	return res, nil
}
