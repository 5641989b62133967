package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Instance is a server that has loaded a dump file. Its methods are safe for
// concurrent use.
type Instance struct {
	// Addr is the server's address, "127.0.0.1:port".
	Addr string
	// Backend is the backend that runs the server: BackendProcess or
	// BackendDocker, never BackendAuto.
	Backend Backend
	// LoadDuration is the time from the server's launch until it answered
	// PING with its dataset loaded.
	LoadDuration time.Duration
	// ServerLoadDuration is the load time the server logged ("DB loaded
	// from disk: S seconds"), or 0 when its log does not say.
	ServerLoadDuration time.Duration
	// Container is the name of the docker container, or "" for the process
	// backend.
	Container string

	r runner

	mu       sync.Mutex
	client   *redis.Client
	closed   bool
	finalLog string
}

// runner is a launched server as a backend sees it.
type runner interface {
	// exited is closed once the server has exited.
	exited() <-chan struct{}
	// exitStatus tells how the server exited; valid once exited is closed.
	exitStatus() string
	// log returns what the server has logged so far.
	log(ctx context.Context) (string, error)
	// owns tells whether the server answering on the runner's address is
	// the one the runner launched, and not some other server that took the
	// port first.
	owns(ctx context.Context, c *redis.Client) (bool, error)
	// close stops the server, removes what the backend made for it, and
	// returns its final log. It must finish its cleanup even when ctx is
	// already cancelled.
	close(ctx context.Context) (string, error)
}

// Start starts a server on the RDB file at dumpPath and waits until it has
// loaded the file. The caller must call [Instance.Close].
//
// A server that refuses the file fails Start at once with an [*ExitError]
// that wraps [ErrLoadRefused]. When ctx is cancelled, Start stops and removes
// what it has started before it returns.
func Start(ctx context.Context, dumpPath string, opts Options) (*Instance, error) {
	opts = opts.withDefaults()
	abs, err := filepath.Abs(dumpPath)
	if err != nil {
		return nil, fmt.Errorf("start redis: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("start redis: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("start redis: %s is not a regular file", abs)
	}
	backend, err := chooseBackend(ctx, opts)
	if err != nil {
		return nil, err
	}
	if opts.Container != "" {
		return restartContainer(ctx, abs, opts)
	}
	launch := launchProcess
	if backend == BackendDocker {
		launch = launchContainer
	}
	// A free port can be taken by someone else before the server binds it:
	// then the server exits at once, and another port is worth a try.
	const attempts = 3
	for attempt := 1; ; attempt++ {
		inst, err := startFresh(ctx, abs, fi, opts, backend, launch)
		var ee *ExitError
		if attempt < attempts && errors.As(err, &ee) && !ee.Refused &&
			strings.Contains(ee.Reason, "Address already in use") {
			continue
		}
		return inst, err
	}
}

// launchFunc launches a fresh server on the dump file at abs, listening on
// 127.0.0.1:port.
type launchFunc func(ctx context.Context, abs string, fi os.FileInfo, port int, opts Options) (runner, error)

// startFresh launches a server on a free port and waits for its load.
func startFresh(ctx context.Context, abs string, fi os.FileInfo, opts Options, backend Backend, launch launchFunc) (*Instance, error) {
	port, err := FreePort()
	if err != nil {
		return nil, fmt.Errorf("start redis: %w", err)
	}
	launched := time.Now()
	r, err := launch(ctx, abs, fi, port, opts)
	if err != nil {
		return nil, err
	}
	inst := &Instance{Addr: loopbackAddr(port), Backend: backend, r: r}
	if c, ok := r.(*container); ok {
		inst.Container = c.name
	}
	if err := inst.waitLoaded(ctx, filepath.Base(abs), launched, opts); err != nil {
		_, _ = r.close(ctx)
		return nil, err
	}
	return inst, nil
}

// ResolveBackend returns the backend that [Start] would run a server with
// under opts: BackendAuto becomes BackendDocker when the engine answers, else
// BackendProcess. Callers that start several servers, and pass arguments that
// depend on the backend, resolve it once.
func ResolveBackend(ctx context.Context, opts Options) (Backend, error) {
	return chooseBackend(ctx, opts.withDefaults())
}

// chooseBackend resolves BackendAuto, and checks that docker answers when
// it is needed.
func chooseBackend(ctx context.Context, opts Options) (Backend, error) {
	switch opts.Backend {
	case BackendProcess:
		if opts.Container != "" {
			return "", errors.New("start redis: Options.Container needs the docker backend")
		}
		return BackendProcess, nil
	case BackendDocker:
		if err := newDocker(opts.DockerHost).ping(ctx); err != nil {
			return "", err
		}
		return BackendDocker, nil
	case BackendAuto:
		err := newDocker(opts.DockerHost).ping(ctx)
		switch {
		case err == nil:
			return BackendDocker, nil
		case opts.Container != "" || !errors.Is(err, ErrDockerUnavailable):
			return "", err
		}
		return BackendProcess, nil
	}
	return "", fmt.Errorf("start redis: unknown backend %q", opts.Backend)
}

// Client returns a client of the server, made on first use and closed by
// [Instance.Close]. Callers that need other client options can build their
// own from Addr.
func (i *Instance) Client() *redis.Client {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.client == nil {
		i.client = redis.NewClient(&redis.Options{Addr: i.Addr})
	}
	return i.client
}

// Log returns what the server has logged so far. After Close it returns the
// server's final log.
func (i *Instance) Log(ctx context.Context) (string, error) {
	i.mu.Lock()
	if i.closed {
		defer i.mu.Unlock()
		return i.finalLog, nil
	}
	i.mu.Unlock()
	return i.r.log(ctx)
}

// Close stops the server with SHUTDOWN NOSAVE and removes its temporary
// directory or container. A restarted existing container ([Options.Container])
// is left running: Close only releases the client. Close is idempotent, and
// it finishes its cleanup even when ctx is cancelled.
func (i *Instance) Close(ctx context.Context) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.closed {
		return nil
	}
	i.closed = true
	var errs []error
	if i.client != nil {
		errs = append(errs, i.client.Close())
	}
	log, err := i.r.close(ctx)
	i.finalLog = log
	errs = append(errs, err)
	return errors.Join(errs...)
}
