package server_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/server"
)

// Cluster mode is one use of Options.Args: a node writes its nodes.conf into
// its working directory, and loads the keys of database 0. Its cluster bus
// needs a port of its own: the default, the server's port plus 10000, is out
// of range when the free port Start picks is above 55535.
func TestClusterArgs(t *testing.T) {
	for _, backend := range []server.Backend{server.BackendProcess, server.BackendDocker} {
		t.Run(string(backend), func(t *testing.T) {
			bus, err := server.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(bus)}
			opts := server.Options{Backend: backend, RedisServer: redistest.RedisServer(t), Args: args}
			if backend == server.BackendDocker {
				opts = dockerOptions(t)
				opts.Args = args
			}
			inst := start(t, redistest.WriteDump(t, testData), opts)
			ctx := testContext(t)
			info, err := inst.Client().ClusterInfo(ctx).Result()
			if err != nil || !strings.Contains(info, "cluster_state:") {
				t.Fatalf("CLUSTER INFO = %q, %v", info, err)
			}
			// The node owns no slot yet, so it serves no key; it has them.
			n, err := inst.Client().DBSize(ctx).Result()
			if err != nil || n != int64(len(testData)) {
				t.Errorf("DBSIZE = %d, %v; want %d", n, err, len(testData))
			}
		})
	}
}
