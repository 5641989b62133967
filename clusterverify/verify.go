// Package clusterverify checks a cluster dataset against a real Redis Cluster: it starts one
// primary per shard file (package localcluster), each loading its file, joins them into one
// cluster, and checks that every node holds only keys of its own slots, that the counts add
// up to the manifests, and that sampled records, recomputed from the manifests, read back
// through go-redis's ClusterClient with their types, values and TTLs.
//
// The package never prints: progress goes to Options.Progress.
package clusterverify

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rdbgen/rdbgen/localcluster"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/server"
)

// Defaults of Options.
const (
	DefaultSample        = 1000
	DefaultMaxMismatches = 10
)

// Options configure Dir. The zero value works.
type Options struct {
	// Server says how each node runs (backend, image, executable, docker host, load
	// timeout). Default: the zero server.Options (docker when it answers, else a local
	// redis-server).
	Server server.Options
	// JoinTimeout bounds the wait for cluster_state:ok; default localcluster's.
	JoinTimeout time.Duration
	// Sample is how many records to spot-check, spread over the dataset, first and last
	// included. Default 0 means DefaultSample; a negative value checks none.
	Sample int
	// MaxMismatches is how many mismatches the Report lists; the others are counted.
	// Default 0 means DefaultMaxMismatches.
	MaxMismatches int
	// Progress, if not nil, is told what the check is doing, one step at a time.
	Progress func(step string)
}

// A Report is the outcome of a check.
type Report struct {
	// Pass is true when every check passed; Reason tells the first failure otherwise.
	Pass   bool   `json:"pass"`
	Reason string `json:"reason,omitempty"`
	Dir    string `json:"dir"`
	// Backend is the backend the nodes ran on: "process" or "docker".
	Backend string       `json:"backend"`
	Nodes   []NodeReport `json:"nodes"`
	// Keys and Expires add up the nodes' counts; WantKeys and WantExpires the manifests'.
	Keys        uint64 `json:"keys"`
	Expires     uint64 `json:"expires"`
	WantKeys    uint64 `json:"want_keys"`
	WantExpires uint64 `json:"want_expires"`
	// Sampled is the number of records compared through the cluster client.
	Sampled int `json:"sampled"`
	// LoadSeconds is the time until every node had loaded its file, JoinSeconds the time
	// the nodes then took to form the cluster, CheckSeconds the time of the checks.
	LoadSeconds  float64 `json:"load_seconds"`
	JoinSeconds  float64 `json:"join_seconds"`
	CheckSeconds float64 `json:"check_seconds"`
	// Mismatches are the first differences found; MismatchCount counts them all.
	Mismatches    []Mismatch `json:"mismatches,omitempty"`
	MismatchCount int        `json:"mismatch_count"`
}

// A NodeReport describes one primary.
type NodeReport struct {
	File   string `json:"file"`
	Addr   string `json:"addr"`
	NodeID string `json:"node_id"`
	// Container is the node's docker container; empty for a process.
	Container string `json:"container,omitempty"`
	// Slots are the node's planned slot ranges, as "first-last".
	Slots []string `json:"slots"`
	// Keys and Expires are what the node holds (INFO keyspace); WantKeys and WantExpires
	// what its manifest says.
	Keys        uint64 `json:"keys"`
	Expires     uint64 `json:"expires"`
	WantKeys    uint64 `json:"want_keys"`
	WantExpires uint64 `json:"want_expires"`
	// LoadSeconds is the time from the node's launch until it served its data;
	// ServerLoadSeconds the load time the server logged (0 when it did not say).
	LoadSeconds       float64 `json:"load_seconds"`
	ServerLoadSeconds float64 `json:"server_load_seconds,omitempty"`
}

// A Mismatch is one difference between what was found and what was expected.
type Mismatch struct {
	// Node is the shard file of the node concerned, or empty.
	Node string `json:"node,omitempty"`
	Key  string `json:"key,omitempty"`
	What string `json:"what"`
	Got  string `json:"got"`
	Want string `json:"want,omitempty"`
}

// String renders m on one line.
func (m Mismatch) String() string {
	s := m.What
	if m.Key != "" {
		s = fmt.Sprintf("%s of %q", s, m.Key)
	}
	if m.Node != "" {
		s += " on " + m.Node
	}
	s += ": " + m.Got
	if m.Want != "" {
		s += ", want " + m.Want
	}
	return s
}

// Dir checks the cluster dataset in dir: the shard files shard-0.rdb … and their manifests
// (see manifest.ReadClusterSet). The returned error means the check could not be made (no
// such directory, shards of different splits, a node that would not start); differences are
// in the Report. Every node is stopped before Dir returns.
func Dir(ctx context.Context, dir string, opts Options) (*Report, error) {
	set, err := manifest.ReadClusterSet(dir)
	if err != nil {
		return nil, err
	}
	for i, f := range set.Files {
		fi, err := os.Stat(f)
		if err != nil {
			return nil, err
		}
		if m := set.Manifests[i]; fi.Size() != m.Bytes {
			return nil, fmt.Errorf("%s holds %d bytes, its manifest says %d: the file changed since it was written", f, fi.Size(), m.Bytes)
		}
	}
	opts.progress(fmt.Sprintf("starting %d nodes", len(set.Files)))
	c, err := localcluster.Start(ctx, set.Files, set.Layout, localcluster.Options{Server: opts.Server, JoinTimeout: opts.JoinTimeout})
	if err != nil {
		return nil, err
	}
	defer c.Close(context.WithoutCancel(ctx))
	rep := &Report{Dir: dir, Backend: string(c.Backend), LoadSeconds: c.LoadDuration.Seconds(), JoinSeconds: c.JoinDuration.Seconds()}
	ms := &mismatches{max: opts.maxMismatches()}
	start := time.Now()
	opts.progress("checking the nodes' keys and slots")
	if err := checkNodes(ctx, c, set, rep, ms); err != nil {
		return nil, err
	}
	opts.progress("spot-checking records through the cluster")
	if err := checkSample(ctx, c.Client(), set, opts.sampleSize(), rep, ms); err != nil {
		return nil, err
	}
	rep.CheckSeconds = time.Since(start).Seconds()
	ms.finish(rep)
	return rep, nil
}

func (o Options) progress(step string) {
	if o.Progress != nil {
		o.Progress(step)
	}
}

func (o Options) sampleSize() int {
	switch {
	case o.Sample < 0:
		return 0
	case o.Sample == 0:
		return DefaultSample
	}
	return o.Sample
}

func (o Options) maxMismatches() int {
	if o.MaxMismatches <= 0 {
		return DefaultMaxMismatches
	}
	return o.MaxMismatches
}

// mismatches collects the mismatches of a check.
type mismatches struct {
	max   int
	list  []Mismatch
	count int
}

func (m *mismatches) add(x Mismatch) {
	m.count++
	if len(m.list) < m.max {
		m.list = append(m.list, x)
	}
}

// finish sets the report's verdict.
func (m *mismatches) finish(rep *Report) {
	rep.Mismatches, rep.MismatchCount = m.list, m.count
	rep.Pass = m.count == 0
	if !rep.Pass {
		rep.Reason = m.list[0].String()
		if m.count > 1 {
			rep.Reason += fmt.Sprintf(" (and %d more)", m.count-1)
		}
	}
}
