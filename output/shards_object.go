package output

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/objstore"
	"github.com/rdbgen/rdbgen/manifest"
)

// The shard files of a split written to object storage: one object per shard under a
// prefix (s3://bucket/prefix/shard-0.rdb...), each uploaded as it is written and completed
// only once every shard's records are written.

// objectShards are the uploads of a split's shard files, and where their manifests go.
type objectShards struct {
	prefix objstore.Object
	w      []*objstore.Writer
}

// createObjectShards starts the upload of the shard files of layout under the prefix that
// rawURL names (its key "" or ending in "/"): every shard's, or with index not nil the one
// of that shard. Unless force is set, an existing shard object or manifest is an error
// wrapping ErrExists.
func createObjectShards(rawURL string, layout *cluster.Layout, index *int, force bool) (*shardFiles, error) {
	prefix, err := objstore.Parse(rawURL, true)
	if err != nil {
		return nil, err
	}
	if prefix.Key != "" && !strings.HasSuffix(prefix.Key, "/") {
		return nil, fmt.Errorf("%s: the shard files of a split go under a prefix: end it with / (%s/)", prefix.URL, prefix.URL)
	}
	s := &shardFiles{Dir: prefix.URL, Layout: layout, objects: &objectShards{prefix: prefix}}
	shards := make([]int, 0, layout.Len())
	if index != nil {
		if err := layout.CheckShard(*index); err != nil {
			return nil, err
		}
		shards, s.index = append(shards, *index), []int{*index}
	} else {
		for i := range layout.Len() {
			shards = append(shards, i)
		}
	}
	ctx := context.Background()
	for _, i := range shards {
		obj := prefix.Child(cluster.ShardFile(i))
		if err = obj.Child(manifest.Suffix).Check(ctx, force); err != nil {
			break
		}
		var w *objstore.Writer
		if w, err = obj.Create(ctx, force); err != nil {
			break
		}
		s.Paths = append(s.Paths, obj.URL)
		s.objects.w = append(s.objects.w, w)
	}
	if err != nil {
		s.Abort()
		return nil, err
	}
	return s, nil
}

// writers returns the uploads, one per shard of s's layout: nil for a shard not written.
func (o *objectShards) writers(s *shardFiles) []io.Writer {
	w := make([]io.Writer, s.Layout.Len())
	for j, i := range s.Written() {
		w[i] = o.w[j]
	}
	return w
}

// abort cancels every upload.
func (o *objectShards) abort() {
	for _, w := range o.w {
		w.Abort()
	}
}

// commit completes every upload, then writes manifests[j] (when not nil) beside the j-th.
// On an error, the objects completed are deleted again and the others aborted: no shard
// stays without the others.
func (o *objectShards) commit(manifests []*manifest.Manifest) error {
	ctx := context.Background()
	var done []objstore.Object
	undo := func(err error) error {
		o.abort()
		for _, obj := range done {
			if derr := obj.Delete(ctx); derr != nil {
				return fmt.Errorf("%w; and %s, written, could not be deleted: %v", err, obj.URL, derr)
			}
		}
		return err
	}
	for _, w := range o.w {
		if err := w.Commit(); err != nil {
			return undo(err)
		}
		done = append(done, w.Object)
	}
	for j, m := range manifests {
		mobj := o.w[j].Object.Child(manifest.Suffix)
		data, err := manifest.Marshal(m)
		if err == nil {
			err = mobj.Put(ctx, data)
		}
		if err != nil {
			return undo(fmt.Errorf("the manifest of %s: %w", o.w[j].URL, err))
		}
		done = append(done, mobj)
	}
	return nil
}
