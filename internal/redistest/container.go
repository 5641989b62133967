package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Container runs a container of the test image the way a user would: named, with the
// image's default save points and restart policy "always", its server listening on a free
// port of 127.0.0.1 (host network) and holding the key "old" = "data". runOpts are extra
// "docker run" options and args extra server arguments. It returns the container's name and
// its server's address; the container is removed when the test ends.
func Container(t testing.TB, runOpts []string, args ...string) (name, addr string) {
	t.Helper()
	image := Image(t)
	b := make([]byte, 4)
	rand.Read(b)
	name = "rdbgen-test-" + hex.EncodeToString(b)
	port := freePort(t)
	run := append([]string{"run", "--detach", "--name", name, "--network", "host", "--restart", "always"}, runOpts...)
	run = append(run, image, "redis-server")
	run = append(run, args...)
	run = append(run, "--port", strconv.Itoa(port), "--bind", "127.0.0.1")
	if out, err := exec.Command("docker", run...).CombinedOutput(); err != nil {
		t.Fatalf("docker run: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("docker", "rm", "--force", name).Run() })

	addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	var err error
	for range 100 {
		if err = c.Set(ctx, "old", "data", 0).Err(); err == nil {
			return name, addr
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("container %s does not answer: %v", name, err)
	return "", ""
}

// ContainerState returns docker's word for a container's state: running, exited...
func ContainerState(t testing.TB, name string) string {
	t.Helper()
	out, err := exec.Command("docker", "inspect", "--format", "{{.State.Status}}", name).CombinedOutput()
	if err != nil {
		t.Fatalf("docker inspect: %v: %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
