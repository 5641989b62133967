package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/rdbgen/rdbgen/cluster"
)

// A ClusterSet is the shard files of one cluster dataset, with their manifests.
type ClusterSet struct {
	// Files are the shard files, Files[i] being cluster.ShardFile(i).
	Files []string
	// Manifests are the files' manifests, in the same order.
	Manifests []*Manifest
	// Layout is the slot layout the manifests' cluster sections describe.
	Layout *cluster.Layout
}

// ReadClusterSet reads the shard files of dir and their manifests, and checks that they form
// one cluster dataset, as one run of rdbgen wrote it: every file has a manifest with a
// cluster section naming its own index and the number of files, all were written at the same
// time from the same records (dataset, spec file or import) for the same target, and their
// slot ranges assign every slot to exactly one shard.
func ReadClusterSet(dir string) (*ClusterSet, error) {
	files, err := cluster.ShardPaths(dir)
	if err != nil {
		return nil, err
	}
	set := &ClusterSet{Files: files, Manifests: make([]*Manifest, len(files))}
	shards := make([]cluster.Shard, len(files))
	for i, f := range files {
		m, err := Read(PathFor(f))
		if err != nil {
			return nil, err
		}
		c := m.Cluster
		switch {
		case c == nil:
			return nil, fmt.Errorf("%s: not a shard of a cluster dataset (its manifest has no cluster section)", f)
		case c.Index != i || c.Shards != len(files):
			return nil, fmt.Errorf("%s: its manifest says shard %d of %d, but the directory holds %d shard files",
				f, c.Index, c.Shards, len(files))
		}
		if i > 0 {
			if err := sameRun(set.Manifests[0], m); err != nil {
				return nil, fmt.Errorf("%s and %s are not shards of one split: %w", filepath.Base(files[0]), filepath.Base(f), err)
			}
		}
		set.Manifests[i] = m
		shards[i] = cluster.Shard{Ranges: c.Slots, NodeID: c.NodeID, Addr: c.Addr}
	}
	if set.Layout, err = cluster.NewLayout(shards); err != nil {
		return nil, fmt.Errorf("%s: the shards' manifests: %w", dir, err)
	}
	return set, nil
}

// sameRun returns why a and b were not written by one run, or nil.
func sameRun(a, b *Manifest) error {
	switch {
	case !a.CreatedAt.Equal(b.CreatedAt):
		return fmt.Errorf("written at %s and %s", a.CreatedAt.Format("2006-01-02T15:04:05.000Z07:00"), b.CreatedAt.Format("2006-01-02T15:04:05.000Z07:00"))
	case a.Target != b.Target || a.RDBVersion != b.RDBVersion:
		return fmt.Errorf("written for %s (RDB %d) and %s (RDB %d)", a.Target, a.RDBVersion, b.Target, b.RDBVersion)
	case !sameJSON(a.Dataset, b.Dataset) || !sameJSON(a.Spec, b.Spec) || !sameJSON(a.Import, b.Import):
		return errors.New("they describe different records")
	}
	return nil
}

// sameJSON tells whether a and b encode to the same JSON.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
