// Package redistest helps integration tests that run a real Redis.
//
// Its helpers find what the tests need: redis-server, the docker engine, the
// test image. Outside CI a missing one skips the test, with a hint of how to
// get it. In CI (the CI environment variable set, as "true") it fails the
// test: integration tests must never skip there unnoticed.
package redistest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ImageTag is the tag of the test image that scripts/redis-image.sh builds
// (make redis-image): Debian's redis-server 7.0 in an image that behaves like
// the official one.
const ImageTag = "rdbgen-test/redis:7.0"

// InCI tells whether the tests run in CI: the CI environment variable is set
// to anything but "", "0" or "false".
func InCI() bool {
	v := os.Getenv("CI")
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return v != ""
}

// Missing fails the test in CI and skips it elsewhere: for what a test needs from the
// machine (a program, root, a mount) and cannot find.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI: "+format, args...)
	}
	t.Skipf(format, args...)
}

// RedisServer returns the path of redis-server.
func RedisServer(t testing.TB) string {
	t.Helper()
	return redisTool(t, "redis-server")
}

// Docker checks that the docker CLI is installed and its engine answers.
func Docker(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("docker"); err != nil {
		Missing(t, "docker CLI not found: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "docker", "version", "--format", "{{.Server.Version}}").CombinedOutput(); err != nil {
		Missing(t, "docker engine does not answer: %v: %s", err, bytes.TrimSpace(out))
	}
}

// Image returns the tag of the test image, [ImageTag], after checking that
// docker has it.
func Image(t testing.TB) string {
	t.Helper()
	Docker(t)
	if out, err := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", ImageTag).CombinedOutput(); err != nil {
		Missing(t, "docker image %s not found (make redis-image): %s", ImageTag, strings.TrimSpace(string(out)))
	}
	return ImageTag
}

// RedisCheckRDB returns the path of redis-check-rdb, which ships with
// redis-server and validates an RDB file deeply.
func RedisCheckRDB(t testing.TB) string {
	t.Helper()
	return redisTool(t, "redis-check-rdb")
}

// RedisCLI returns the path of redis-cli, which ships with redis-server.
func RedisCLI(t testing.TB) string {
	t.Helper()
	return redisTool(t, "redis-cli")
}

// redisTool returns the path of a program of Debian's redis-server package.
func redisTool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "%s not found (apt-get install -y redis-server): %v", name, err)
	}
	return path
}
