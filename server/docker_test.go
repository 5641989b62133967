package server_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

func dockerOptions(t *testing.T) server.Options {
	return server.Options{Backend: server.BackendDocker, Image: redistest.Image(t)}
}

// containers lists the containers with the package's label and the given
// name, running or not.
func containers(t *testing.T, name string) []string {
	t.Helper()
	out, err := exec.Command("docker", "ps", "--all", "--quiet",
		"--filter", "label="+server.Label, "--filter", "name=^"+name+"$").CombinedOutput()
	if err != nil {
		t.Fatalf("docker ps: %v: %s", err, out)
	}
	return strings.Fields(string(out))
}

func TestDockerLoads(t *testing.T) {
	dump := redistest.WriteDump(t, testData)
	sum := redistest.FileSum(t, dump)
	ctx := testContext(t)
	inst, err := server.Start(ctx, dump, dockerOptions(t))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if inst.Backend != server.BackendDocker || inst.Container == "" {
		t.Errorf("Backend, Container = %q, %q; want docker and a name", inst.Backend, inst.Container)
	}
	if got := containers(t, inst.Container); len(got) != 1 {
		t.Errorf("running container %s not listed with label %s: %v", inst.Container, server.Label, got)
	}
	checkData(t, inst, testData)

	// The file is mounted read-only: even SAVE cannot touch it.
	c := inst.Client()
	if err := c.Set(ctx, "new", "key", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(ctx).Err(); err == nil {
		t.Errorf("SAVE succeeded on a read-only mount")
	}
	if log, err := inst.Log(ctx); err != nil || !strings.Contains(log, "DB loaded from disk") {
		t.Errorf("Log = %q, %v; want the server's log", log, err)
	}
	if inst.ServerLoadDuration < 0 || inst.LoadDuration <= 0 {
		t.Errorf("load durations %v, %v", inst.LoadDuration, inst.ServerLoadDuration)
	}
	if err := inst.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got := containers(t, inst.Container); len(got) != 0 {
		t.Errorf("container %s not removed by Close: %v", inst.Container, got)
	}
	if redistest.FileSum(t, dump) != sum {
		t.Errorf("dump file changed")
	}
}

// A file that only its owner, not root and not the image's user, can read
// loads: the server runs as the file's owner.
func TestDockerFileOwner(t *testing.T) {
	if os.Getuid() != 0 {
		redistest.Missing(t, "needs root to give the file to another user; CI runs this as root")
	}
	opts := dockerOptions(t)
	dump := redistest.WriteDump(t, testData)
	if err := os.Chmod(dump, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dump, 4321, 4321); err != nil {
		t.Fatal(err)
	}
	inst := start(t, dump, opts)
	checkData(t, inst, testData)
}

func TestDockerRefusesVersion(t *testing.T) {
	opts, before := dockerOptions(t), labelled(t)
	_, err := server.Start(testContext(t), versionDump(t), opts)
	if !errors.Is(err, server.ErrLoadRefused) || err.Error() != "redis refused v12.rdb: Can't handle RDB format version 12" {
		t.Fatalf("Start = %v, want ErrLoadRefused for version 12", err)
	}
	checkNoNewContainers(t, before)
}

func TestDockerRefusesTruncated(t *testing.T) {
	opts, before := dockerOptions(t), labelled(t)
	_, err := server.Start(testContext(t), truncatedDump(t), opts)
	if !errors.Is(err, server.ErrLoadRefused) || !strings.Contains(err.Error(), "Short read") {
		t.Fatalf("Start = %v, want ErrLoadRefused with the server's Short read line", err)
	}
	checkNoNewContainers(t, before)
}

func TestDockerCancel(t *testing.T) {
	dump := redistest.WriteBigDump(t, 1_000_000)
	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	opts, before := dockerOptions(t), labelled(t)
	opts.Progress = func(record.Progress) { cancel() }
	_, err := server.Start(ctx, dump, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Start = %v, want context.Canceled", err)
	}
	checkNoNewContainers(t, before)
}

func TestBadDockerHost(t *testing.T) {
	opts := server.Options{Backend: server.BackendDocker, DockerHost: "tcp://127.0.0.1:1"}
	_, err := server.Start(testContext(t), writeFile(t, "dump.rdb", nil), opts)
	if !errors.Is(err, server.ErrDockerUnavailable) {
		t.Fatalf("Start = %v, want ErrDockerUnavailable", err)
	}
	t.Log(err)

	// Auto falls back to the process backend.
	opts = server.Options{DockerHost: "tcp://127.0.0.1:1", RedisServer: redistest.RedisServer(t)}
	inst := start(t, redistest.WriteDump(t, testData), opts)
	if inst.Backend != server.BackendProcess {
		t.Errorf("Backend = %q, want process", inst.Backend)
	}
	checkData(t, inst, testData)
}

func TestAutoPicksDocker(t *testing.T) {
	redistest.Docker(t)
	inst := start(t, redistest.WriteDump(t, testData), server.Options{Image: redistest.Image(t)})
	if inst.Backend != server.BackendDocker {
		t.Errorf("Backend = %q, want docker", inst.Backend)
	}
	checkData(t, inst, testData)
}

// labelled lists the containers that this test process started: other test
// binaries (go test runs packages in parallel) start containers of their own.
func labelled(t *testing.T) map[string]bool {
	t.Helper()
	owner := fmt.Sprintf("label=%s=%d", server.OwnerLabel, os.Getpid())
	out, err := exec.Command("docker", "ps", "--all", "--quiet", "--no-trunc", "--filter", owner).CombinedOutput()
	if err != nil {
		t.Fatalf("docker ps: %v: %s", err, out)
	}
	ids := make(map[string]bool)
	for _, id := range strings.Fields(string(out)) {
		ids[id] = true
	}
	return ids
}

// checkNoNewContainers checks that every container this process started
// was there already before the test: that a failed Start removed its own.
func checkNoNewContainers(t *testing.T, before map[string]bool) {
	t.Helper()
	for id := range labelled(t) {
		if !before[id] {
			t.Errorf("container %.12s left behind", id)
		}
	}
}
