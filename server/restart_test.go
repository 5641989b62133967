package server_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/server"
)

// existingContainer runs a container of the test image the way a user
// would: named, with the image's default save points and restart policy
// "always", holding the key "old". It returns the container's name and
// address; the container is removed when the test ends.
func existingContainer(t *testing.T, args ...string) (name, addr string) {
	t.Helper()
	return existingContainerRun(t, nil, args...)
}

// existingContainerRun is existingContainer with extra "docker run" options.
func existingContainerRun(t *testing.T, runOpts []string, args ...string) (name, addr string) {
	t.Helper()
	return redistest.Container(t, runOpts, args...)
}

// containerState returns docker's word for a container's state.
func containerState(t *testing.T, name string) string {
	t.Helper()
	return redistest.ContainerState(t, name)
}

func TestRestartContainer(t *testing.T) {
	name, addr := existingContainer(t)
	dump := redistest.WriteDump(t, testData)
	sum := redistest.FileSum(t, dump)
	ctx := testContext(t)

	opts := server.Options{Backend: server.BackendDocker, Container: name}
	inst, err := server.Start(ctx, dump, opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if inst.Container != name || inst.Addr != addr {
		t.Errorf("Container, Addr = %q, %q; want %q, %q", inst.Container, inst.Addr, name, addr)
	}
	checkData(t, inst, testData) // "old" is gone
	if err := inst.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got := containerState(t, name); got != "running" {
		t.Errorf("container %s is %s after Close, want running", name, got)
	}
	if redistest.FileSum(t, dump) != sum {
		t.Errorf("dump file changed")
	}

	// A stopped container is restarted on the file too.
	if out, err := exec.Command("docker", "stop", name).CombinedOutput(); err != nil {
		t.Fatalf("docker stop: %v: %s", err, out)
	}
	other := map[string]string{"other": "dataset"}
	inst = start(t, redistest.WriteDump(t, other), opts)
	checkData(t, inst, other)

	// A file the server refuses leaves the container stopped, and says so.
	_, err = server.Start(ctx, versionDump(t), opts)
	if !errors.Is(err, server.ErrLoadRefused) || !strings.Contains(err.Error(), "Can't handle RDB format version 12") ||
		!strings.Contains(err.Error(), "left stopped") {
		t.Fatalf("Start = %v, want ErrLoadRefused, and the container left stopped", err)
	}
	t.Log(err)
	if got := containerState(t, name); got != "exited" {
		t.Errorf("container %s is %s, want exited", name, got)
	}
}

func TestRestartAppendOnly(t *testing.T) {
	name, addr := existingContainer(t, "--appendonly", "yes")
	opts := server.Options{Backend: server.BackendDocker, Container: name}
	ctx := testContext(t)
	dump := redistest.WriteDump(t, testData)
	sum := redistest.FileSum(t, dump)
	inst := start(t, dump, opts)
	checkData(t, inst, testData)
	log, err := inst.Log(ctx)
	if err != nil || !strings.Contains(log, "DB loaded from append only file") {
		t.Errorf("Log = %q, %v; want a load from the AOF", log, err)
	}
	// The server goes on from the new data: writes go to the new AOF, and a
	// plain restart brings back the new data and the write, not the old data.
	if err := inst.Client().Set(ctx, "later", "write", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("docker", "restart", name).CombinedOutput(); err != nil {
		t.Fatalf("docker restart: %v: %s", err, out)
	}
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	want := map[string]string{"later": "write"}
	for k, v := range testData {
		want[k] = v
	}
	for range 100 {
		if err = c.Ping(ctx).Err(); err == nil {
			break
		}
		exec.Command("sleep", "0.05").Run()
	}
	n, err := c.DBSize(ctx).Result()
	if err != nil || n != int64(len(want)) {
		t.Fatalf("after docker restart: DBSIZE = %d, %v; want %d", n, err, len(want))
	}
	for k, v := range want {
		if got, err := c.Get(ctx, k).Result(); got != v {
			t.Errorf("after docker restart: GET %s = %.20q, %v; want %.20q", k, got, err, v)
		}
	}
	if redistest.FileSum(t, dump) != sum {
		t.Errorf("dump file changed")
	}

	// Again, now that the manifest is ours.
	other := map[string]string{"other": "dataset"}
	inst = start(t, redistest.WriteDump(t, other), opts)
	checkData(t, inst, other)
}

func TestRestartStoppedHiddenAppendOnly(t *testing.T) {
	conf := writeFile(t, "redis.conf", []byte("appendonly yes\n"))
	name, _ := existingContainerRun(t, []string{"--volume", conf + ":/etc/redis.conf:ro"}, "/etc/redis.conf")
	if out, err := exec.Command("docker", "stop", name).CombinedOutput(); err != nil {
		t.Fatalf("docker stop: %v: %s", err, out)
	}
	// Stopped, its command line does not tell that the configuration file
	// turns appendonly on: the server loads its AOF, and Start sees it.
	opts := server.Options{Backend: server.BackendDocker, Container: name}
	_, err := server.Start(testContext(t), redistest.WriteDump(t, testData), opts)
	if !errors.Is(err, server.ErrAppendOnly) || !strings.Contains(err.Error(), "left running on its old append-only file") {
		t.Fatalf("Start = %v, want ErrAppendOnly", err)
	}
	t.Log(err)
}

func TestRestartMissingContainer(t *testing.T) {
	redistest.Docker(t)
	opts := server.Options{Container: "rdbgen-test-no-such-container"}
	_, err := server.Start(context.Background(), writeFile(t, "dump.rdb", nil), opts)
	if err == nil || !strings.Contains(err.Error(), "No such container") {
		t.Fatalf("Start = %v, want No such container", err)
	}
	t.Log(err)
}
