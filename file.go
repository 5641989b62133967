package rdbgen

import (
	"context"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

// FileOptions configure WriteFile and WriteShardFiles. The zero value works.
type FileOptions struct {
	Options
	// Force replaces existing files: the output, its manifest, shard files (and removes shard
	// files beyond the new layout). Default false: an existing output is an error wrapping
	// manifest.ErrExists, and the existing file is left as it was.
	Force bool
	// Manifest is where WriteFile writes the manifest; default the output path with
	// manifest.Suffix. WriteShardFiles puts each shard's manifest beside its file.
	Manifest string
	// NoManifest writes no manifest at all. Default false.
	NoManifest bool
	// Describe, if not nil, adds to each manifest what its records are (Dataset, Spec or
	// Import), once the counts are in. Default nil: a *dataset.Spec source is recorded as the
	// manifest's Dataset, other sources by their counts alone.
	Describe func(m *manifest.Manifest)
}

// FileResult summarises WriteFile: the write, and where the file and manifest went.
type FileResult struct {
	Result
	Path     string
	Manifest string // empty when none was written
	// Stale lists the temporary files of killed rdbgen runs that were removed from the
	// output's directory before writing.
	Stale []string
}

// ShardFilesResult summarises WriteShardFiles: the write, and where each file went.
type ShardFilesResult struct {
	ClusterResult
	Dir string
	// Paths are the shard files, Paths[i] being shard i's; each has its manifest beside it
	// (manifest.PathFor), unless NoManifest was set. Of WriteShardFile, the other shards'
	// paths are empty (and their Shards stats zero).
	Paths []string
	// Removed lists the shard files of an earlier, larger split that Force removed.
	Removed []string
	// Stale lists the temporary files of killed rdbgen runs that were removed from dir
	// before writing.
	Stale []string
}

// WriteFile writes every record of src as an RDB file at path, with its manifest. The file
// appears at path only once complete: on an error or cancellation, path holds what it held
// before. See Write for the records and FileOptions for the rest.
func WriteFile(ctx context.Context, path string, src record.Source, opts FileOptions) (FileResult, error) {
	opts.Encoder = stamped(opts)
	mpath := opts.Manifest
	switch {
	case opts.NoManifest:
		mpath = ""
	case mpath == "" && atomicfile.IsStream(path):
		// A FIFO or a device is written into as a stream: no sidecar unless asked for.
	case mpath == "":
		mpath = manifest.PathFor(path)
	}
	f, err := manifest.CreateFile(path, mpath, opts.Force)
	if err != nil {
		return FileResult{}, err
	}
	defer f.Abort()
	res, err := Write(ctx, f, src, opts.Options)
	if err != nil {
		return FileResult{}, err
	}
	m := manifest.New(opts.Encoder, res.Target, res.RDBVersion, res.Stats, res.DBs)
	describe(m, src, opts)
	if err := f.Commit(m); err != nil {
		return FileResult{}, err
	}
	return FileResult{Result: res, Path: path, Manifest: mpath, Stale: f.Stale()}, nil
}

// WriteShardFiles writes every record of src split by hash slot into dir (created when
// missing): one file per shard of layout, named cluster.ShardFile(i), each with its
// manifest, all put in place together once every one is complete. See WriteShards for the
// split and FileOptions for the rest (Manifest is not used).
func WriteShardFiles(ctx context.Context, dir string, src record.Source, layout *cluster.Layout, opts FileOptions) (ShardFilesResult, error) {
	opts.Encoder = stamped(opts)
	shards, err := manifest.CreateShards(dir, layout, opts.Force)
	if err != nil {
		return ShardFilesResult{}, err
	}
	return writeShardFiles(ctx, shards, src, opts)
}

// WriteShardFile writes the file of shard index alone of the split of src that
// WriteShardFiles writes, with its manifest, into dir (created when missing): one process of
// a split that many write side by side into one directory, each its own shard (a pod of a
// Kubernetes Indexed Job). It reads every record of src and keeps those of its shard's
// slots. With the same src, layout and options, and the same opts.Encoder.CreatedAt (which
// the processes must share: set it), the file and manifest are those of WriteShardFiles
// byte for byte, so the union of what the processes write is one split. Other shards' files
// are left alone, Force or not: Force replaces the shard's own file and manifest only. An
// index out of range is an error naming the number of shards.
func WriteShardFile(ctx context.Context, dir string, src record.Source, layout *cluster.Layout, index int, opts FileOptions) (ShardFilesResult, error) {
	opts.Encoder = stamped(opts)
	shards, err := manifest.CreateShard(dir, layout, index, opts.Force)
	if err != nil {
		return ShardFilesResult{}, err
	}
	return writeShardFiles(ctx, shards, src, opts)
}

// writeShardFiles writes the records of src into the files of shards, and puts them in place.
func writeShardFiles(ctx context.Context, shards *manifest.Shards, src record.Source, opts FileOptions) (ShardFilesResult, error) {
	dir, layout := shards.Dir, shards.Layout
	defer shards.Abort()
	res, err := WriteShards(ctx, shards.Writers(), src, layout, opts.Options)
	if err != nil {
		return ShardFilesResult{}, err
	}
	written := shards.Written()
	ms := make([]*manifest.Manifest, len(written))
	paths := make([]string, layout.Len())
	for j, i := range written {
		st := res.Shards[i]
		m := manifest.New(opts.Encoder, res.Target, res.RDBVersion, st, map[int]record.Counts{0: {Keys: st.Keys, Expires: st.Expires}})
		s := layout.Shard(i)
		m.Cluster = &manifest.Shard{Index: i, Shards: layout.Len(), Slots: s.Ranges, NodeID: s.NodeID, Addr: s.Addr}
		describe(m, src, opts)
		ms[j], paths[i] = m, shards.Paths[j]
	}
	if opts.NoManifest {
		ms = nil
	}
	removed, err := shards.Commit(ms)
	if err != nil {
		return ShardFilesResult{}, err
	}
	return ShardFilesResult{ClusterResult: res, Dir: dir, Paths: paths, Removed: removed, Stale: shards.Stale()}, nil
}

// stamped returns the encoder options of opts with the creation time set, so that the file
// and its manifest agree on it.
func stamped(opts FileOptions) encoder.Options {
	e := opts.Encoder
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now()
	}
	return e
}

// describe adds to m what the records of src are.
func describe(m *manifest.Manifest, src record.Source, opts FileOptions) {
	if opts.Describe != nil {
		opts.Describe(m)
		return
	}
	if d, ok := src.(*dataset.Spec); ok {
		m.Dataset = d
	}
}
