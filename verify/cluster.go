package verify

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// ClusterReport is the outcome of [Cluster]. Its JSON form is what rdbgen verify --cluster
// --json prints.
type ClusterReport struct {
	// Pass is true when every check passed; Reason tells why not, as in [Report].
	Pass   bool   `json:"pass"`
	Reason string `json:"reason,omitempty"`
	// Dir is the directory of the shard files.
	Dir string `json:"dir"`
	// Files are the offline checks of the shard files, in order.
	Files []*FileReport `json:"files"`
	// Backend is the backend the nodes ran on: "process" or "docker"; empty when no
	// cluster was started.
	Backend string `json:"backend,omitempty"`
	// Nodes are the cluster's primaries, one per shard file, in order.
	Nodes []NodeReport `json:"nodes,omitempty"`
	// Keys and Expires add up what the nodes hold; WantKeys and WantExpires what the
	// manifests say.
	Keys        uint64 `json:"keys"`
	Expires     uint64 `json:"expires"`
	WantKeys    uint64 `json:"want_keys"`
	WantExpires uint64 `json:"want_expires"`
	// Sampled is the number of records compared through the cluster client, SampleSeed the
	// seed they were drawn with, Absent the number of keys checked absent.
	Sampled    int    `json:"sampled"`
	SampleSeed uint64 `json:"sample_seed"`
	Absent     int    `json:"absent"`
	// LoadSeconds is the time until every node had loaded its file, JoinSeconds the time
	// the nodes then took to form one cluster, CheckSeconds the time of the checks on it.
	LoadSeconds  float64 `json:"load_seconds,omitempty"`
	JoinSeconds  float64 `json:"join_seconds,omitempty"`
	CheckSeconds float64 `json:"check_seconds,omitempty"`
	// Mismatches are the first differences found, at most [Options.MaxMismatches];
	// MismatchCount counts them all.
	Mismatches    []Mismatch `json:"mismatches,omitempty"`
	MismatchCount int        `json:"mismatch_count"`
}

// NodeReport describes one primary of a verified cluster.
type NodeReport struct {
	File   string `json:"file"`
	Addr   string `json:"addr"`
	NodeID string `json:"node_id"`
	// Container is the node's docker container; empty for a process.
	Container string `json:"container,omitempty"`
	// Slots are the node's slot ranges, as "first-last".
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

// Cluster verifies the cluster dataset in dir: the shard files shard-0.rdb … and their
// manifests, which must be one split (see manifest.ReadClusterSet).
//
// Every file first gets the offline stage of [File] against its own manifest. Unless
// opts.Offline, one primary per file is then started in cluster mode (see package
// localcluster: processes or containers, as opts.Server says), each loading its file; the
// primaries are joined into one cluster, every slot that no node claimed by loading its
// keys going to its planned owner, and the checks run once every node reports
// cluster_state:ok: each node's key counts against its manifest, that it holds keys of its
// own slots only (CLUSTER COUNTKEYSINSLOT), that the counts add up to the dataset, and
// sampled records, recomputed from the manifests, read through go-redis's ClusterClient
// with their types, values and TTLs. The cluster is torn down before Cluster returns.
//
// opts.Manifest is not used: each file has its own. The returned error means the dataset
// could not be verified (not one split, a node that would not start...).
func Cluster(ctx context.Context, dir string, opts Options) (*ClusterReport, error) {
	set, err := manifest.ReadClusterSet(dir)
	if err != nil {
		return nil, err
	}
	rep := &ClusterReport{Dir: dir, SampleSeed: opts.SampleSeed}
	ms := opts.newMismatches()
	// The offline stage reads each file twice: progress counts the bytes of all files.
	var all, done int64
	for _, m := range set.Manifests {
		all += 2 * m.Bytes
	}
	for i, f := range set.Files {
		o := opts
		o.Manifest = set.Manifests[i]
		o.Progress = func(p record.Progress) {
			p.Bytes, p.TotalBytes = done+p.Bytes, all
			opts.progress(p)
		}
		e, err := newExpectation(o.Manifest)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		fileMs := opts.newMismatches()
		fr, err := checkFile(ctx, f, o, e, fileMs)
		if err != nil {
			return nil, err
		}
		if o.For != nil {
			checkService(*o.For, f, fr, fileMs)
		}
		ms.addAll(fileMs, filepath.Base(f))
		rep.Files = append(rep.Files, fr)
		done += 2 * o.Manifest.Bytes
	}
	if ms.count > 0 || opts.Offline {
		rep.finish(ms)
		return rep, nil
	}

	opts.progress(record.Progress{Stage: string(StageLoad)})
	so := opts.Server
	so.Progress = nil
	c, err := localcluster.Start(ctx, set.Files, set.Layout, localcluster.Options{Server: so})
	if errors.Is(err, server.ErrLoadRefused) {
		ms.add(Mismatch{Stage: StageLoad, Got: err.Error()})
		rep.finish(ms)
		return rep, nil
	}
	if err != nil {
		return nil, err
	}
	rep.Backend = string(c.Backend)
	rep.LoadSeconds, rep.JoinSeconds = c.LoadDuration.Seconds(), c.JoinDuration.Seconds()
	err = checkCluster(ctx, c, set, opts, rep, ms)
	closeErr := c.Close(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}
	rep.finish(ms)
	if closeErr != nil {
		return rep, fmt.Errorf("stop the cluster: %w", closeErr)
	}
	return rep, nil
}

// checkCluster runs the checks on the started cluster c.
func checkCluster(ctx context.Context, c *localcluster.Cluster, set *manifest.ClusterSet, opts Options, rep *ClusterReport, ms *mismatches) error {
	start := time.Now()
	defer func() { rep.CheckSeconds = time.Since(start).Seconds() }()
	// What the whole cluster holds: every record of the manifests' dataset or spec file.
	e, err := newExpectation(set.Manifests[0])
	if err != nil {
		return err
	}
	e.shard = nil
	if err := checkNodes(ctx, c, set, e, rep, ms); err != nil {
		return err
	}
	if e.firstExpiry > 0 && e.firstExpiry <= time.Now().UnixMilli() {
		ms.add(Mismatch{Stage: StageServer, What: "expired", Got: fmt.Sprintf("the keys expire from %s, which has passed: "+
			"Redis drops expired keys, so counts and samples cannot match (generate the files again)", formatMS(e.firstExpiry))})
	}
	sr := &ServerReport{SampleSeed: opts.SampleSeed}
	rd := clusterReader{c.Client()}
	if err := sampleRecords(ctx, rd, e, opts, sr, ms); err != nil {
		return err
	}
	if err := checkAbsent(ctx, rd, e.absent, "outside the dataset", sr, ms); err != nil {
		return err
	}
	rep.Sampled, rep.Absent = sr.Sampled, sr.Absent
	return nil
}

// clusterReader reads the keys of a cluster through its cluster client, whose pipelines
// send each command to the node of its key's slot. A cluster holds database 0 only.
type clusterReader struct{ c *redis.ClusterClient }

func (r clusterReader) pipeline(int) redis.Pipeliner { return r.c.Pipeline() }

// finish fills in the verdict.
func (r *ClusterReport) finish(ms *mismatches) {
	r.Mismatches, r.MismatchCount = ms.list, ms.count
	r.Pass, r.Reason = ms.verdict()
}
