package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
)

// clusterFlags split what a command writes into one file per primary of a Redis Cluster.
func clusterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "cluster-shards", Usage: "split by hash slot into N files OUTPUT/shard-0.rdb ... for a Redis Cluster of N primaries", Category: "Cluster"},
		&cli.StringFlag{Name: "slots-from", Usage: "split by the slot layout of a running cluster: a file of CLUSTER NODES or CLUSTER SHARDS output, or a nodes.conf", Category: "Cluster"},
		shardIndexFlag(),
	}
}

// isCluster tells whether the command is to write a cluster dataset.
func isCluster(c *cli.Context) bool { return c.IsSet("cluster-shards") || c.IsSet("slots-from") }

// clusterOutput checks the flags of a cluster split, whose output is a directory with one
// file and manifest per shard, and returns the layout to split by.
func clusterOutput(c *cli.Context) (*cluster.Layout, error) {
	flag := "--cluster-shards"
	if c.IsSet("slots-from") {
		flag = "--slots-from"
	}
	dir := c.String("output")
	switch {
	case c.IsSet("manifest"):
		return nil, fmt.Errorf("--manifest does not go with %s: each shard's manifest goes next to its file", flag)
	case !c.IsSet("output"):
		return nil, fmt.Errorf("%s writes one file per shard into a directory: name it with -o DIR", flag)
	case dir == "-":
		return nil, fmt.Errorf("%s writes one file per shard: -o - (stdout) cannot hold them", flag)
	}
	layout, err := clusterLayout(c)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("-o %s is a file: a cluster split needs a directory", dir)
	}
	return layout, nil
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

// reportShards reports the run that wrote res; extra, if not empty, is added to the
// summary.
func (j *fileJob) reportShards(res *output.Result, ic importCounts, extra string) error {
	sum := clusterSummary{
		Output: res.Path, Keys: res.Stats.Keys, Expires: res.Stats.Expires, Members: res.Stats.Members, Bytes: res.Stats.Bytes,
		Seconds: res.Duration.Seconds(), CountSeconds: res.CountDuration.Seconds(), KeysPerSecond: perSecond(res.Stats.Keys, res.Duration),
		Target: res.Target, RDBVersion: res.RDBVersion, Removed: res.Removed, importCounts: ic, TotalShards: j.layout.Len(),
	}
	if j.shard >= 0 {
		sum.ShardIndex = &j.shard
	}
	for _, sr := range res.Shards {
		shard, st := j.layout.Shard(sr.Index), sr.Stats
		sum.Shards = append(sum.Shards, shardSummary{
			File: sr.Path, Manifest: manifest.PathFor(sr.Path), Slots: shard.Ranges, NodeID: shard.NodeID, Addr: shard.Addr,
			Keys: st.Keys, Expires: st.Expires, Members: st.Members, Bytes: st.Bytes, Checksum: manifest.FormatChecksum(st.Checksum),
		})
	}
	switch {
	case j.asJSON:
		return printJSON(j.results, sum)
	case j.quiet:
		return nil
	}
	return printClusterSummary(j.results, sum, extra)
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
	// ShardIndex is the one shard written (--shard-index), of TotalShards; nil for all.
	ShardIndex   *int `json:"shard_index,omitempty"`
	TotalShards  int  `json:"total_shards"`
	importCounts      // imports only
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
	shards := fmt.Sprintf("%d shards", len(sum.Shards))
	if sum.ShardIndex != nil {
		shards = fmt.Sprintf("shard %d of %d", *sum.ShardIndex, sum.TotalShards)
	}
	fmt.Fprintf(&b, "wrote %d keys (%d with TTL%s) in %s to %s: %s in %.2fs, %.0f keys/s (RDB %d, %s)%s\n",
		sum.Keys, sum.Expires, members, shards, sum.Output, humanBytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.RDBVersion, sum.Target, extra)
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
