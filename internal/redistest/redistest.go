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

// missing fails the test in CI and skips it elsewhere.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI: "+format, args...)
	}
	t.Skipf(format, args...)
}

// RedisServer returns the path of redis-server.
func RedisServer(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		missing(t, "redis-server not found (apt-get install -y redis-server): %v", err)
	}
	return path
}

// Docker checks that the docker CLI is installed and its engine answers.
func Docker(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("docker"); err != nil {
		missing(t, "docker CLI not found: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "docker", "version", "--format", "{{.Server.Version}}").CombinedOutput(); err != nil {
		missing(t, "docker engine does not answer: %v: %s", err, bytes.TrimSpace(out))
	}
}

// Image returns the tag of the test image, [ImageTag], after checking that
// docker has it.
func Image(t testing.TB) string {
	t.Helper()
	Docker(t)
	if out, err := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", ImageTag).CombinedOutput(); err != nil {
		missing(t, "docker image %s not found (make redis-image): %s", ImageTag, strings.TrimSpace(string(out)))
	}
	return ImageTag
}

// RedisCheckRDB returns the path of redis-check-rdb, which ships with
// redis-server and validates an RDB file deeply.
func RedisCheckRDB(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("redis-check-rdb")
	if err != nil {
		missing(t, "redis-check-rdb not found (apt-get install -y redis-server): %v", err)
	}
	return path
}
