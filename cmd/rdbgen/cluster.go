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

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/manifest"
)

// clusterFlags split what a command writes into one file per primary of a Redis Cluster.
func clusterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "cluster-shards", Usage: "split by hash slot into N files OUTPUT/shard-0.rdb ... for a Redis Cluster of N primaries", Category: "Cluster"},
		&cli.StringFlag{Name: "slots-from", Usage: "split by the slot layout of a running cluster: a file of CLUSTER NODES or CLUSTER SHARDS output, or a nodes.conf", Category: "Cluster"},
	}
}

// isCluster tells whether the command is to write a cluster dataset.
func isCluster(c *cli.Context) bool { return c.IsSet("cluster-shards") || c.IsSet("slots-from") }

// A clusterJob is one run of a command that writes a cluster dataset: a directory with one
// file and manifest per shard, all put in place together once every file is complete.
type clusterJob struct {
	*fileJob
	layout   *cluster.Layout
	dir      string
	existing map[int]string // shard files in dir before the run
	made     bool           // dir was created by the run
}

// newClusterJob reads the cluster flags, checks them with the file job j's, and creates
// the output directory when it is missing.
func newClusterJob(c *cli.Context, j *fileJob) (*clusterJob, error) {
	flag := "--cluster-shards"
	if c.IsSet("slots-from") {
		flag = "--slots-from"
	}
	switch {
	case c.IsSet("manifest"):
		return nil, fmt.Errorf("--manifest does not go with %s: each shard's manifest goes next to its file", flag)
	case !c.IsSet("output"):
		return nil, fmt.Errorf("%s writes one file per shard into a directory: name it with -o DIR", flag)
	case c.String("output") == "-":
		return nil, fmt.Errorf("%s writes one file per shard: -o - (stdout) cannot hold them", flag)
	}
	cj := &clusterJob{fileJob: j, dir: j.out}
	var err error
	if cj.layout, err = clusterLayout(c); err != nil {
		return nil, err
	}
	if cj.made, err = makeDir(cj.dir); err != nil {
		return nil, err
	}
	if cj.existing, err = cluster.ShardFiles(cj.dir); err == nil && len(cj.existing) > 0 && !j.force {
		err = fmt.Errorf("%s already holds shard files (%s): use --force to replace them", cj.dir, listFiles(cj.existing))
	}
	if err != nil {
		cj.cleanup()
		return nil, err
	}
	return cj, nil
}

// cleanup removes the output directory if the run created it and it is still empty: after a
// failure.
func (cj *clusterJob) cleanup() {
	if cj.made {
		os.Remove(cj.dir)
	}
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

// write runs write into temporary files, one per shard, that are put in place together
// once all are complete, with a progress bar of total keys (0: unknown).
func (cj *clusterJob) write(c *cli.Context, total uint64, write func(dsts []io.Writer, progress func(rdbgen.Progress)) (rdbgen.ClusterResult, error)) (rdbgen.ClusterResult, error) {
	files := make([]*atomicfile.File, cj.layout.Len())
	dsts := make([]io.Writer, len(files))
	abort := func() {
		for _, f := range files {
			if f != nil {
				f.Abort()
			}
		}
		cj.cleanup()
	}
	for i := range files {
		f, err := atomicfile.Create(filepath.Join(cj.dir, cluster.ShardFile(i)), cj.force)
		if err != nil {
			abort()
			return rdbgen.ClusterResult{}, err
		}
		files[i], dsts[i] = f, f
		for _, path := range f.Removed() {
			fmt.Fprintf(c.App.ErrWriter, "removed %s, the temporary file of an rdbgen run that was killed\n", path)
		}
	}
	progress, done := cj.progress(c, total)
	res, err := write(dsts, progress)
	done()
	if err != nil {
		abort()
		return res, errInterrupted(err)
	}
	if err := atomicfile.CommitAll(files); err != nil {
		cj.cleanup()
		return res, err
	}
	return res, nil
}

// finish writes each shard's manifest, made by manifestOf from the shard's own counts and
// cluster section, removes shard files left from an earlier, larger split (which --force
// replaced), and reports the run; extra, if not empty, is added to the summary.
func (cj *clusterJob) finish(res rdbgen.ClusterResult, manifestOf func(m *manifest.Manifest), sum clusterSummary, extra string) error {
	sum.Output, sum.Keys, sum.Expires, sum.Members, sum.Bytes = cj.dir, res.Total.Keys, res.Total.Expires, res.Total.Members, res.Total.Bytes
	sum.Seconds, sum.CountSeconds = res.Duration.Seconds(), res.CountDuration.Seconds()
	sum.KeysPerSecond = perSecond(res.Total.Keys, res.Duration)
	sum.Target, sum.RDBVersion = res.Target, res.RDBVersion
	for i, st := range res.Shards {
		shard := cj.layout.Shard(i)
		path := filepath.Join(cj.dir, cluster.ShardFile(i))
		s := shardSummary{
			File: path, Manifest: manifest.PathFor(path), Slots: shard.Ranges, NodeID: shard.NodeID, Addr: shard.Addr,
			Keys: st.Keys, Expires: st.Expires, Members: st.Members, Bytes: st.Bytes, Checksum: manifest.FormatChecksum(st.Checksum),
		}
		m := cj.manifest(rdbgen.Result{Stats: st, RDBVersion: res.RDBVersion, Target: res.Target})
		if st.Keys > 0 {
			m.DBs[0] = manifest.Counts{Keys: st.Keys, Expires: st.Expires}
		}
		m.Cluster = &manifest.Shard{Index: i, Shards: cj.layout.Len(), Slots: shard.Ranges, NodeID: shard.NodeID, Addr: shard.Addr}
		manifestOf(m)
		if err := manifest.Write(s.Manifest, m); err != nil {
			return fmt.Errorf("wrote the shard files in %s but not the manifest of %s: %w", cj.dir, cluster.ShardFile(i), err)
		}
		sum.Shards = append(sum.Shards, s)
	}
	for i, path := range cj.existing {
		if i < cj.layout.Len() {
			continue
		}
		for _, p := range []string{path, manifest.PathFor(path)} {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s, left from an earlier split: %w", p, err)
			}
		}
		sum.Removed = append(sum.Removed, path)
	}
	slices.Sort(sum.Removed)
	switch {
	case cj.asJSON:
		return printJSON(cj.results, sum)
	case cj.quiet:
		return nil
	}
	return printClusterSummary(cj.results, sum, extra)
}

// clusterSummary is what a command that writes a cluster dataset reports.
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
	importCounts                 // imports only
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

// printClusterSummary writes the summary of a cluster split for people.
func printClusterSummary(w io.Writer, sum clusterSummary, extra string) error {
	var b strings.Builder
	members := ""
	if sum.Members > 0 {
		members = fmt.Sprintf(", %d members", sum.Members)
	}
	fmt.Fprintf(&b, "wrote %d keys (%d with TTL%s) in %d shards to %s: %s in %.2fs, %.0f keys/s (RDB %d, %s)%s\n",
		sum.Keys, sum.Expires, members, len(sum.Shards), sum.Output, humanBytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.RDBVersion, sum.Target, extra)
	for _, s := range sum.Shards {
		node := ""
		if s.Addr != "" {
			node = " (" + s.Addr + ")"
		}
		fmt.Fprintf(&b, "  %s  slots %s%s: %d keys, %s\n", filepath.Base(s.File), cluster.Shard{Ranges: s.Slots}.RangesString(), node, s.Keys, humanBytes(s.Bytes))
	}
	for _, p := range sum.Removed {
		fmt.Fprintf(&b, "  removed %s, left from an earlier split\n", p)
	}
	_, err := io.WriteString(w, b.String())
	return err
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
