package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/manifest"
)

// clusterSummary is what generate reports for a cluster dataset.
type clusterSummary struct {
	Output        string         `json:"output"`
	Shards        []shardSummary `json:"shards"`
	Keys          uint64         `json:"keys"`
	Expires       uint64         `json:"expires"`
	Members       uint64         `json:"members,omitempty"`
	Bytes         int64          `json:"bytes"`
	Seconds       float64        `json:"seconds"`
	CountSeconds  float64        `json:"count_seconds"`
	KeysPerSecond float64        `json:"keys_per_second"`
	Target        string         `json:"target"`
	RDBVersion    int            `json:"rdb_version"`
	Removed       []string       `json:"removed,omitempty"`
}

// shardSummary describes one shard file.
type shardSummary struct {
	File     string          `json:"file"`
	Manifest string          `json:"manifest"`
	Slots    []cluster.Range `json:"slots"`
	NodeID   string          `json:"node_id,omitempty"`
	Addr     string          `json:"addr,omitempty"`
	Keys     uint64          `json:"keys"`
	Expires  uint64          `json:"expires"`
	Members  uint64          `json:"members,omitempty"`
	Bytes    int64           `json:"bytes"`
	Checksum string          `json:"checksum"`
}

// clusterLayout returns the layout that --cluster-shards and --slots-from ask for.
func clusterLayout(c *cli.Context) (*cluster.Layout, error) {
	n := c.Int("cluster-shards")
	path := c.String("slots-from")
	if path == "" {
		if c.IsSet("slots-from") {
			return nil, errors.New("--slots-from needs a file name")
		}
		if n < 1 || n > cluster.MaxShards {
			return nil, fmt.Errorf("--cluster-shards %d out of range (1 to %d)", n, cluster.MaxShards)
		}
		return cluster.Even(n)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--slots-from: %w", err)
	}
	defer f.Close()
	l, err := cluster.ParseLayout(f)
	if err != nil {
		return nil, fmt.Errorf("--slots-from %s: %w", path, err)
	}
	if c.IsSet("cluster-shards") && n != l.Len() {
		return nil, fmt.Errorf("--cluster-shards %d, but %s has %d primaries owning slots", n, path, l.Len())
	}
	return l, nil
}

// generateClusterAction writes d split by hash slot into a directory, one file and manifest
// per shard. Nothing is in place before every file is complete.
func generateClusterAction(c *cli.Context, d *dataset.Spec, opts encoder.Options, now time.Time) error {
	flag := "--cluster-shards"
	if c.IsSet("slots-from") {
		flag = "--slots-from"
	}
	switch {
	case d.DB != 0:
		return fmt.Errorf("--db %d: %w (a cluster node refuses other dbs)", d.DB, cluster.ErrDB)
	case c.IsSet("manifest"):
		return fmt.Errorf("--manifest does not go with %s: each shard's manifest goes next to its file", flag)
	case !c.IsSet("output"):
		return fmt.Errorf("%s writes one file per shard into a directory: name it with -o DIR", flag)
	case c.String("output") == "-":
		return fmt.Errorf("%s writes one file per shard: -o - (stdout) cannot hold them", flag)
	}
	layout, err := clusterLayout(c)
	if err != nil {
		return err
	}
	dir, force := c.String("output"), c.Bool("force")
	made, err := makeDir(dir)
	if err != nil {
		return err
	}
	if made {
		defer os.Remove(dir) // only if it is still empty: after a failure
	}
	existing, err := cluster.ShardFiles(dir)
	if err != nil {
		return err
	}
	if len(existing) > 0 && !force {
		return fmt.Errorf("%s already holds shard files (%s): use --force to replace them", dir, listFiles(existing))
	}

	files := make([]*atomicfile.File, layout.Len())
	dsts := make([]io.Writer, layout.Len())
	for i := range files {
		f, err := atomicfile.Create(filepath.Join(dir, cluster.ShardFile(i)), force)
		if err != nil {
			return err
		}
		defer f.Abort()
		files[i], dsts[i] = f, f
	}

	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	bar := newBar(c.App.ErrWriter, int64(d.Count), "keys", quiet || asJSON)
	var progress func(rdbgen.Progress)
	if bar != nil {
		progress = func(p rdbgen.Progress) { bar.Set64(int64(p.Keys)) }
	}
	res, err := rdbgen.GenerateCluster(c.Context, dsts, d, layout, opts, progress)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return errInterrupted(err)
	}
	if err := atomicfile.CommitAll(files); err != nil {
		return err
	}

	sum := clusterSummary{
		Output:        dir,
		Keys:          res.Total.Keys,
		Expires:       res.Total.Expires,
		Members:       res.Total.Members,
		Bytes:         res.Total.Bytes,
		Seconds:       res.Duration.Seconds(),
		CountSeconds:  res.CountDuration.Seconds(),
		KeysPerSecond: perSecond(res.Total.Keys, res.Duration),
		Target:        res.Target,
		RDBVersion:    res.RDBVersion,
	}
	for i, st := range res.Shards {
		shard := layout.Shard(i)
		path := filepath.Join(dir, cluster.ShardFile(i))
		s := shardSummary{
			File: path, Manifest: manifest.PathFor(path), Slots: shard.Ranges, NodeID: shard.NodeID, Addr: shard.Addr,
			Keys: st.Keys, Expires: st.Expires, Members: st.Members, Bytes: st.Bytes, Checksum: manifest.FormatChecksum(st.Checksum),
		}
		m := &manifest.Manifest{
			Format:     manifest.FormatVersion,
			Generator:  "rdbgen " + encoder.Version,
			CreatedAt:  now.UTC(),
			Target:     res.Target,
			RDBVersion: res.RDBVersion,
			Compressed: !opts.DisableCompression,
			Checksum:   s.Checksum,
			Bytes:      st.Bytes,
			Keys:       st.Keys,
			Expires:    st.Expires,
			DBs:        map[int]manifest.Counts{},
			Dataset:    d,
			Thresholds: opts.Thresholds,
			Cluster:    &manifest.Shard{Index: i, Shards: layout.Len(), Slots: shard.Ranges, NodeID: shard.NodeID, Addr: shard.Addr},
		}
		if st.Keys > 0 {
			m.DBs[0] = manifest.Counts{Keys: st.Keys, Expires: st.Expires}
		}
		if err := manifest.Write(s.Manifest, m); err != nil {
			return fmt.Errorf("wrote the shard files in %s but not the manifest of %s: %w", dir, cluster.ShardFile(i), err)
		}
		sum.Shards = append(sum.Shards, s)
	}
	// With --force, shard files beyond this layout's belong to the set just replaced.
	for i, path := range existing {
		if i < layout.Len() {
			continue
		}
		for _, p := range []string{path, manifest.PathFor(path)} {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s, left from an earlier split: %w", p, err)
			}
		}
		sum.Removed = append(sum.Removed, path)
	}

	switch {
	case asJSON:
		return printJSON(c.App.Writer, sum)
	case quiet:
		return nil
	}
	return printClusterSummary(c.App.Writer, sum)
}

// printClusterSummary writes the summary of a cluster split for people.
func printClusterSummary(w io.Writer, sum clusterSummary) error {
	members := ""
	if sum.Members > 0 {
		members = fmt.Sprintf(", %d members", sum.Members)
	}
	fmt.Fprintf(w, "wrote %d keys (%d with TTL%s) in %d shards to %s: %s in %.2fs, %.0f keys/s (RDB %d, %s)\n",
		sum.Keys, sum.Expires, members, len(sum.Shards), sum.Output, humanBytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.RDBVersion, sum.Target)
	for _, s := range sum.Shards {
		slots := make([]string, len(s.Slots))
		for i, r := range s.Slots {
			slots[i] = r.String()
		}
		node := ""
		if s.Addr != "" {
			node = " (" + s.Addr + ")"
		}
		fmt.Fprintf(w, "  %s  slots %s%s: %d keys, %s\n", filepath.Base(s.File), strings.Join(slots, ","), node, s.Keys, humanBytes(s.Bytes))
	}
	for _, p := range sum.Removed {
		fmt.Fprintf(w, "  removed %s, left from an earlier split\n", p)
	}
	return nil
}

// makeDir creates dir when it does not exist, and reports whether it did.
func makeDir(dir string) (bool, error) {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && fi.IsDir():
		return false, nil
	case err == nil:
		return false, fmt.Errorf("-o %s is a file: a cluster split needs a directory", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("check %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return false, fmt.Errorf("create %s: %w", dir, err)
	}
	return true, nil
}

// listFiles names the first few of files, by number.
func listFiles(files map[int]string) string {
	var names []string
	for _, i := range slices.Sorted(maps.Keys(files)) {
		if len(names) == 3 {
			return strings.Join(names, ", ") + ", ..."
		}
		names = append(names, filepath.Base(files[i]))
	}
	return strings.Join(names, ", ")
}
