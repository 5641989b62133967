// Package localcluster starts a Redis Cluster on this machine from the shard files of a
// cluster dataset: one primary per file, each loading its file, joined into one cluster
// over 127.0.0.1 with every slot given to the primary the layout plans for it.
//
// Nodes run through package server, as processes or docker containers, and never write
// their files.
package localcluster

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/server"
)

// DefaultJoinTimeout is the default of Options.JoinTimeout.
const DefaultJoinTimeout = time.Minute

// Options configure Start. The zero value works.
type Options struct {
	// Server says how each node runs: backend, image, executable, docker host and load
	// timeout. Its Args are added to the node's cluster arguments. Default: the zero
	// server.Options (docker when it answers, else a local redis-server).
	Server server.Options
	// JoinTimeout bounds the wait for every node to report cluster_state:ok once the
	// nodes have loaded their files. Default DefaultJoinTimeout.
	JoinTimeout time.Duration
}

// A Node is one primary of a started cluster.
type Node struct {
	*server.Instance
	// File is the shard file the node loaded.
	File string
	// ID is the node's cluster id.
	ID string
	// Planned are the slot ranges the layout gives the node.
	Planned []cluster.Range
	// Claimed are the slots the node took by itself when it loaded its file: those of the
	// keys it found. A file split by its layout claims only slots of Planned.
	Claimed []cluster.Range
	// BusPort is the port of the node's cluster bus.
	BusPort int
}

// A Cluster is a started cluster. Close stops it.
type Cluster struct {
	// Nodes are the primaries, in the order of their files.
	Nodes []*Node
	// Backend is the backend the nodes run on.
	Backend server.Backend
	// LoadDuration is the time until every node had loaded its file, and JoinDuration the
	// time from then until every node reported cluster_state:ok.
	LoadDuration, JoinDuration time.Duration

	mu     sync.Mutex
	client *redis.ClusterClient
}

// Start starts one primary per file, file i holding shard i of layout, and joins them into
// one cluster. The files load at the same time. A node that loads keys of unassigned slots
// claims them by itself; every slot that no node claimed is then given to the node layout
// plans for it, and Start waits until every node reports cluster_state:ok. On an error,
// what was started is stopped again.
func Start(ctx context.Context, files []string, layout *cluster.Layout, opts Options) (*Cluster, error) {
	if len(files) != layout.Len() {
		return nil, fmt.Errorf("start cluster: %d files for %d shards", len(files), layout.Len())
	}
	backend, err := server.ResolveBackend(ctx, opts.Server)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Backend: backend, Nodes: make([]*Node, len(files))}
	start := time.Now()
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Go(func() {
			inst, bus, err := startNode(ctx, f, backend, opts.Server)
			if err != nil {
				errs[i] = fmt.Errorf("start node of %s: %w", f, err)
				return
			}
			c.Nodes[i] = &Node{Instance: inst, File: f, Planned: layout.Shard(i).Ranges, BusPort: bus}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		c.Close(ctx)
		return nil, err
	}
	c.LoadDuration = time.Since(start)
	joined := time.Now()
	timeout := opts.JoinTimeout
	if timeout <= 0 {
		timeout = DefaultJoinTimeout
	}
	if err := c.join(ctx, timeout); err != nil {
		c.Close(ctx)
		return nil, err
	}
	c.JoinDuration = time.Since(joined)
	return c, nil
}

// startNode starts a cluster-enabled server on file. Its cluster bus gets a port of its
// own: by default it would be the server's port plus 10000, which is out of range for
// ports above 55535. A port that is taken meanwhile makes the server exit at once, and
// another try is worth it.
func startNode(ctx context.Context, file string, backend server.Backend, opts server.Options) (*server.Instance, int, error) {
	opts.Backend = backend
	// A process writes nodes.conf into its own temporary directory; a container's server
	// may not be able to write /data (see server.Options.Args), so it uses /tmp.
	conf := "nodes.conf"
	if backend == server.BackendDocker {
		conf = "/tmp/nodes.conf"
	}
	extra := opts.Args
	for attempt := 1; ; attempt++ {
		bus, err := server.FreePort()
		if err != nil {
			return nil, 0, err
		}
		opts.Args = append([]string{
			"--cluster-enabled", "yes",
			"--cluster-config-file", conf,
			"--cluster-port", strconv.Itoa(bus),
		}, extra...)
		inst, err := server.Start(ctx, file, opts)
		var ee *server.ExitError
		if attempt < 3 && errors.As(err, &ee) && strings.Contains(ee.Reason, "ddress already in use") {
			continue
		}
		return inst, bus, err
	}
}

// Client returns a cluster client of the nodes, made on first use and closed by Close.
func (c *Cluster) Client() *redis.ClusterClient {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client == nil {
		addrs := make([]string, len(c.Nodes))
		for i, n := range c.Nodes {
			addrs[i] = n.Addr
		}
		// Maintenance notifications off: go-redis would log the refusal of a server that
		// does not know them, and callers of this package may not print.
		c.client = redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs,
			MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}})
	}
	return c.client
}

// Close stops every node and releases the client. It finishes its cleanup even when ctx is
// cancelled.
func (c *Cluster) Close(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	if c.client != nil {
		errs = append(errs, c.client.Close())
		c.client = nil
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, n := range c.Nodes {
		if n == nil {
			continue
		}
		wg.Go(func() {
			if err := n.Close(context.WithoutCancel(ctx)); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("stop node of %s: %w", n.File, err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
