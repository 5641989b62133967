// Package servertest starts real Redis servers for tests and checks what
// they hold. Like redistest, it fails the test in CI when redis-server is
// missing, and skips it elsewhere.
package servertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/localcluster"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/spec"
)

// GenerateFile writes d with opts into a new file in a test temporary
// directory and returns its path.
func GenerateFile(t testing.TB, d *dataset.Config, opts encoder.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := output.Write(context.Background(), f, d, output.Options{Encoder: opts}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Start starts a local redis-server on the RDB file at path, passing it the
// extra server arguments args (such as "--maxmemory", "2mb"), and stops it
// when the test ends.
func Start(t testing.TB, path string, args ...string) *server.Instance {
	t.Helper()
	redisServer := redistest.RedisServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: redisServer, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := inst.Close(context.Background()); err != nil {
			t.Errorf("stop redis: %v", err)
		}
	})
	return inst
}

// StartEmpty starts a local redis-server with no keys, as Start does.
func StartEmpty(t testing.TB, args ...string) *server.Instance {
	t.Helper()
	redistest.RedisServer(t)
	return Start(t, GenerateFile(t, &dataset.Config{}, encoder.Options{}), args...)
}

// WriteRecords returns the path of a new RDB file, in a test temporary directory, that holds
// recs (a database's records together) as the encoder writes them with opts.
func WriteRecords(t testing.TB, recs []record.Record, opts encoder.Options) string {
	t.Helper()
	return WriteSource(t, record.Records(recs), opts)
}

// WriteSource returns the path of a new RDB file, in a test temporary directory, that holds
// the records of src as the encoder writes them with opts.
func WriteSource(t testing.TB, src record.Source, opts encoder.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := rdbsink.NewWriter(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.WriteTo(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// ExampleSpecs returns the spec files of the examples directory (a path from the test's
// package), by file name, each with its base time now and scaled down to what a test loads
// quickly: mass-insert.yaml to 1%, sessions.yaml to 10%, the others whole.
func ExampleSpecs(t testing.TB, examples string) map[string]*spec.Spec {
	t.Helper()
	scales := map[string]float64{"mass-insert.yaml": 0.01, "sessions.yaml": 0.1}
	files, err := filepath.Glob(filepath.Join(examples, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in %s: %v", examples, err)
	}
	specs := map[string]*spec.Spec{}
	for _, file := range files {
		name := filepath.Base(file)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := spec.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		p := s.Params
		p.CountScale, p.BaseTimeMS = scales[name], time.Now().UnixMilli()
		if err := s.SetParams(p); err != nil {
			t.Fatal(err)
		}
		specs[name] = s
	}
	return specs
}

// StartCluster starts an empty Redis Cluster of three primaries on local redis-servers,
// joined and ready, with the slots split as cluster.Even(3) splits them, and stops it when
// the test ends. args are added to every node's arguments.
func StartCluster(t testing.TB, args ...string) (*localcluster.Cluster, *cluster.Layout) {
	t.Helper()
	layout, err := cluster.Even(3)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for range 3 {
		files = append(files, GenerateFile(t, &dataset.Config{}, encoder.Options{Target: "redis-7.0"}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := localcluster.Start(ctx, files, layout, localcluster.Options{
		Server: server.Options{Backend: server.BackendProcess, RedisServer: redistest.RedisServer(t), Args: args}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return c, layout
}

// NodeKeys returns the number of keys each node of c holds, and fails the test unless
// every key is on the node that layout gives its slot.
func NodeKeys(t testing.TB, c *localcluster.Cluster, layout *cluster.Layout) []uint64 {
	t.Helper()
	counts := make([]uint64, len(c.Nodes))
	for i, n := range c.Nodes {
		keys, err := n.Client().Keys(context.Background(), "*").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if owner := layout.Owner(cluster.Slot([]byte(k))); owner != i {
				t.Fatalf("key %q is on node %d, its slot's owner is %d", k, i, owner)
			}
		}
		counts[i] = uint64(len(keys))
	}
	return counts
}
