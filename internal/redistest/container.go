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

// RunImage starts a container of the image tag on the host network, with args after the
// image's name as "docker run IMAGE ARGS…" passes them (they must make its server listen on
// port), and waits until the server answers on 127.0.0.1:port, with its dataset loaded. It
// returns the container's name and a client; both go when the test ends. labels are docker
// labels ("key=value") put on the container.
func RunImage(t testing.TB, tag string, port int, labels []string, args ...string) (string, *redis.Client) {
	t.Helper()
	name := strings.NewReplacer("/", "-", ":", "-").Replace(tag) + "-" + strconv.Itoa(port)
	t.Cleanup(func() { exec.Command("docker", "rm", "--force", name).Run() })
	run := []string{"run", "--detach", "--name", name, "--network", "host"}
	for _, l := range labels {
		run = append(run, "--label", l)
	}
	run = append(append(run, tag), args...)
	if out, err := exec.Command("docker", run...).CombinedOutput(); err != nil {
		t.Fatalf("docker run: %v: %s", err, out)
	}
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port), MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		err := c.Ping(ctx).Err()
		if err == nil {
			return name, c
		}
		if ctx.Err() != nil {
			logs, _ := exec.Command("docker", "logs", name).CombinedOutput()
			t.Fatalf("the container's server does not answer: %v\n%s", err, logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
