package server

import (
	"os"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

// Backend names the way a server is run.
type Backend string

// The backends.
const (
	// BackendAuto uses BackendDocker when the docker engine answers, and
	// BackendProcess otherwise. It always uses BackendDocker when
	// [Options.Container] is set.
	BackendAuto Backend = "auto"
	// BackendProcess runs redis-server as a child process.
	BackendProcess Backend = "process"
	// BackendDocker runs the server in a docker container.
	BackendDocker Backend = "docker"
)

// Defaults of [Options].
const (
	DefaultImage       = "redis:7.4"
	DefaultRedisServer = "redis-server"
	DefaultLoadTimeout = 10 * time.Minute
)

// Options configures [Start]. The zero value is ready to use.
type Options struct {
	// Backend chooses how the server runs. Default: BackendAuto.
	Backend Backend

	// RedisServer is the server executable. For the process backend it is a
	// path, or a name looked up in PATH; for the docker backend it is the
	// command run in the container, replacing the image's entrypoint.
	// Default: "redis-server". Set it to "valkey-server" for Valkey.
	RedisServer string

	// Image is the docker image of a fresh container. Default: "redis:7.4",
	// the official image. The docker engine pulls it if it has no copy.
	Image string

	// DockerHost is the address of the docker engine, as for "docker -H".
	// Default: $DOCKER_HOST, else the docker CLI's own default (its current
	// context). The docker backend bind-mounts the dump file, so the engine
	// must run on this machine.
	DockerHost string

	// Container, when set, names an existing container to restart on the
	// dump file instead of starting a fresh one; it implies the docker
	// backend. Default: "", a fresh container that Close removes.
	//
	// Start reads the server's data directory and file names (CONFIG GET
	// when it runs, else its command line), stops it with SHUTDOWN NOSAVE
	// and "docker stop", copies the dump file into the data directory
	// ("docker cp"), starts the container again and waits for the load. The
	// container keeps its name and settings, and goes on serving the new
	// data after [Instance.Close]. With appendonly on (Redis 7.0 and later,
	// Valkey), the file becomes the base of a new AOF manifest instead.
	// An error tells the state the container was left in.
	//
	// Limits: the server must be reachable on 127.0.0.1 (host network, or a
	// published port) without a password; a stopped container's settings
	// are read from its command line only; an older server with appendonly
	// on is refused ([ErrAppendOnly]).
	Container string

	// LoadTimeout bounds the wait for the server to answer and finish
	// loading. Default: 10 minutes.
	LoadTimeout time.Duration

	// Args are extra server arguments, such as "--cluster-enabled", "yes".
	// They come before the arguments Start needs (port, bind address, data
	// directory, file name, appendonly, save points, log file), which
	// therefore always win. They are not used with Container.
	// Default: none.
	//
	// In cluster mode ("--cluster-enabled", "yes"), give the cluster bus a
	// port ("--cluster-port", from FreePort): its default, the server's port
	// plus 10000, is out of range when the free port Start picks is above
	// 55535, and the server then exits.
	//
	// In a fresh container the server runs as the dump file's owner, who
	// can write to the data directory /data only if it is root or the
	// image's own user: point what the server writes elsewhere, as in
	// "--cluster-config-file", "/tmp/nodes.conf".
	Args []string

	// Progress, if not nil, is called from Start's goroutine while the server
	// loads, about ten times a second, with the bytes loaded (Bytes) out of the
	// file's (TotalBytes), as INFO persistence reports them. Default: nil.
	Progress func(record.Progress)
}

// withDefaults returns o with its zero fields set to their defaults.
func (o Options) withDefaults() Options {
	if o.Backend == "" {
		o.Backend = BackendAuto
	}
	if o.RedisServer == "" {
		o.RedisServer = DefaultRedisServer
	}
	if o.Image == "" {
		o.Image = DefaultImage
	}
	if o.DockerHost == "" {
		o.DockerHost = os.Getenv("DOCKER_HOST")
	}
	if o.LoadTimeout <= 0 {
		o.LoadTimeout = DefaultLoadTimeout
	}
	return o
}
