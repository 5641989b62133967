package verify_test

import (
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

// userContainer runs a named container of the test image as a user would, holding the key
// "old", and returns its name and a client of its server. It is removed when the test ends.
func userContainer(t *testing.T) (string, *redis.Client) {
	t.Helper()
	name, addr := redistest.Container(t, nil)
	c := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { c.Close() })
	return name, c
}

func TestFileRestartsContainer(t *testing.T) {
	name, c := userContainer(t)
	d := withTTL(500)
	path, m := generate(t, d, encoder.Options{})
	sum := redistest.FileSum(t, path)
	so := server.Options{Container: name}
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: so})
	wantPass(t, rep, err)
	if rep.Load.Container != name || rep.Load.Backend != string(server.BackendDocker) || rep.Server.Sampled != 500 {
		t.Fatalf("report %+v %+v", rep.Load, rep.Server)
	}
	if redistest.FileSum(t, path) != sum {
		t.Fatal("verify changed the file")
	}

	// The container keeps its name, goes on running, and serves the new data.
	if state := redistest.ContainerState(t, name); state != "running" {
		t.Fatalf("container %s is %s", name, state)
	}
	ctx := testContext(t)
	if n, err := c.DBSize(ctx).Result(); err != nil || n != 500 {
		t.Fatalf("DBSIZE = %d, %v", n, err)
	}
	if n, err := c.Exists(ctx, "old").Result(); err != nil || n != 0 {
		t.Fatalf("the old data is still there: %d, %v", n, err)
	}
	key := string(d.AppendKey(nil, 250))
	if v, err := c.Get(ctx, key).Result(); err != nil || v != key {
		t.Fatalf("GET %s = %q, %v", key, v, err)
	}
}

// TestFileRestartContainerRefused restarts a container on a file its server refuses: the
// report carries the server's reason and the state the container was left in.
func TestFileRestartContainerRefused(t *testing.T) {
	name, _ := userContainer(t)
	path, m := generate(t, classic(100), encoder.Options{Target: "redis-7.4"})
	so := server.Options{Backend: server.BackendDocker, Container: name}
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: so})
	wantFail(t, rep, err, verify.StageLoad, "Can't handle RDB format version 12")
	if want := "restart container " + name + ": "; !strings.Contains(rep.Reason, want) || !strings.Contains(rep.Reason, "(container left stopped: it refused the new dump file") {
		t.Fatalf("reason %q does not name the container and its state", rep.Reason)
	}
	if state := redistest.ContainerState(t, name); state != "exited" {
		t.Fatalf("container %s is %s", name, state)
	}
}

// TestFileDamagedNeverReachesContainer checks that a file failing the offline stage is not
// put into an existing container.
func TestFileDamagedNeverReachesContainer(t *testing.T) {
	name, c := userContainer(t)
	path, m := generate(t, classic(100), encoder.Options{})
	redistest.ChangeFile(t, path, func(b []byte) []byte { b[len(b)/2] ^= 1; return b })
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: server.Options{Container: name}})
	wantFail(t, rep, err, verify.StageFile, "checksum")
	if rep.Load != nil {
		t.Fatal("a damaged file was loaded")
	}
	if v, err := c.Get(testContext(t), "old").Result(); err != nil || v != "data" {
		t.Fatalf("the container's data changed: %q, %v", v, err)
	}
}
