package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Label marks the containers that this package starts, as "rdbgen=1":
// "docker ps -a --filter label=rdbgen" lists them.
const Label = "rdbgen"

// OwnerLabel records the process ID of the program that started a container,
// as "rdbgen.pid=1234", so that a program can tell its own containers from
// those of other programs running at the same time.
const OwnerLabel = "rdbgen.pid"

// container is a server in a docker container: a fresh one that close
// removes, or an existing one (see restart.go) that close leaves running.
type container struct {
	docker docker
	name   string
	addr   string
	fresh  bool   // started by this package: close removes it
	since  string // docker logs --since: where this run's log begins

	done   <-chan struct{}
	status func() string
	stop   func()
}

// launchContainer runs a fresh container of opts.Image that serves the dump
// file, mounted read-only as /data/dump.rdb, on 127.0.0.1:port.
//
// The container shares the host's network, with the server bound to
// 127.0.0.1, so that every packet stays on loopback and a server that
// expects loopback clients (protected mode) accepts ours.
//
// The image's entrypoint is replaced by opts.RedisServer: the official
// image's entrypoint, started as root, chowns everything under /data that
// the redis user does not own, and that fails on a read-only mount, which
// ends the container. Instead the server runs as the file's owner (uid:gid),
// who can read the file as it is, without a change to its permissions. The
// mount keeps the file unwritable whoever the server runs as: even an
// explicit SAVE fails, as it would rename a new file over the mount point.
func launchContainer(ctx context.Context, abs string, fi os.FileInfo, port int, opts Options) (runner, error) {
	d := newDocker(opts.DockerHost)
	name, err := containerName()
	if err != nil {
		return nil, fmt.Errorf("start redis container: %w", err)
	}
	args := []string{
		"run", "--detach",
		"--name", name,
		"--label", Label + "=1",
		"--label", OwnerLabel + "=" + strconv.Itoa(os.Getpid()),
		"--network", "host",
		"--entrypoint", opts.RedisServer,
		"--mount", "type=bind," + csvField("source="+abs) + ",target=/data/dump.rdb,readonly",
	}
	if uid, gid, ok := fileOwner(fi); ok {
		args = append(args, "--user", fmt.Sprintf("%d:%d", uid, gid))
	}
	args = append(args, opts.Image)
	args = append(args, opts.Args...)
	args = append(args, serverArgs(port, "/data")...)
	c := &container{docker: d, name: name, addr: loopbackAddr(port), fresh: true}
	if _, err := d.run(ctx, nil, args...); err != nil {
		// docker run may have created the container before it failed.
		_, _ = c.remove(ctx)
		return nil, fmt.Errorf("start redis container: %w", err)
	}
	c.done, c.status, c.stop = d.waitExit(name)
	return c, nil
}

// containerName returns a new name "rdbgen-<random hex>".
func containerName() (string, error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "rdbgen-" + hex.EncodeToString(b), nil
}

// csvField quotes a field of a --mount value, which docker reads as CSV, if
// it holds a comma or a quote.
func csvField(s string) string {
	if !strings.ContainsAny(s, `,"`) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func (c *container) exited() <-chan struct{} { return c.done }

func (c *container) exitStatus() string { return c.status() }

func (c *container) log(ctx context.Context) (string, error) {
	return c.docker.logs(ctx, c.name, c.since)
}

// owns looks for the server's "Ready to accept connections" in the
// container's log: a server that lost its port to another exits before it
// logs that. An existing container has its own port, which nobody else takes.
func (c *container) owns(ctx context.Context, _ *redis.Client) (bool, error) {
	if !c.fresh {
		return true, nil
	}
	log, err := c.log(ctx)
	if err != nil {
		return false, err
	}
	return strings.Contains(log, "Ready to accept connections"), nil
}

// close removes a fresh container; it leaves an existing one running.
func (c *container) close(ctx context.Context) (string, error) {
	if !c.fresh {
		c.stop()
		return c.log(context.WithoutCancel(ctx))
	}
	return c.remove(ctx)
}

// removeTimeout bounds the removal of a container, which goes on after the
// caller's ctx is cancelled.
const removeTimeout = 30 * time.Second

// remove stops the server with SHUTDOWN NOSAVE, then force-removes the
// container. It returns the container's final log.
func (c *container) remove(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), removeTimeout)
	defer cancel()
	if c.done != nil {
		select {
		case <-c.done:
		default:
			rc := newPollClient(c.addr)
			_ = rc.ShutdownNoSave(ctx).Err()
			rc.Close()
			select {
			case <-c.done:
			case <-time.After(5 * time.Second):
			}
		}
		c.stop()
	}
	log, _ := c.log(ctx)
	if _, err := c.docker.run(ctx, nil, "rm", "--force", "--volumes", c.name); err != nil &&
		!strings.Contains(err.Error(), "No such container") {
		return log, fmt.Errorf("remove redis container %s: %w", c.name, err)
	}
	return log, nil
}
