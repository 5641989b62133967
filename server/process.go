package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// process is a redis-server run as a child process in a temporary directory.
type process struct {
	cmd  *exec.Cmd
	addr string
	dir  string        // temporary directory: the server's working directory
	out  *syncBuffer   // the server's stdout and stderr
	done chan struct{} // closed when cmd.Wait has returned
}

// launchProcess starts redis-server in a new temporary directory holding a
// symbolic link "dump.rdb" to the dump file.
//
// The server only reads the file: it runs with no save points and appendonly
// off, so it never saves on its own. Even an explicit SAVE from a client
// cannot touch the file: the server writes a temporary file and renames it
// over the link, which replaces the link, not the file it points to.
func launchProcess(ctx context.Context, abs string, _ os.FileInfo, port int, opts Options) (runner, error) {
	path, err := exec.LookPath(opts.RedisServer)
	if err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			err = ee.Err
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrRedisServerNotFound, opts.RedisServer, err)
	}
	dir, err := os.MkdirTemp("", "rdbgen-redis-")
	if err != nil {
		return nil, fmt.Errorf("start redis: %w", err)
	}
	if err := os.Symlink(abs, filepath.Join(dir, "dump.rdb")); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start redis: %w", err)
	}
	args := append(append([]string{}, opts.Args...), serverArgs(port, dir)...)
	args = append(args, "--logfile", filepath.Join(dir, "redis.log"))
	// Not exec.CommandContext: the server outlives ctx, which only bounds
	// Start. Close stops it.
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	out := new(syncBuffer)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start redis: %w", err)
	}
	p := &process{cmd: cmd, addr: loopbackAddr(port), dir: dir, out: out, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// serverArgs returns the arguments that make a server serve the dump file
// dir/dump.rdb on 127.0.0.1:port without ever writing it.
func serverArgs(port int, dir string) []string {
	return []string{
		"--port", strconv.Itoa(port),
		"--bind", "127.0.0.1",
		"--dir", dir,
		"--dbfilename", "dump.rdb",
		"--appendonly", "no",
		"--save", "",
		"--daemonize", "no",
	}
}

func (p *process) exited() <-chan struct{} { return p.done }

func (p *process) exitStatus() string { return p.cmd.ProcessState.String() }

// log returns the log file followed by whatever the server printed, such as
// a configuration error or the report of its RDB check.
func (p *process) log(context.Context) (string, error) {
	b, err := os.ReadFile(filepath.Join(p.dir, "redis.log"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read redis log: %w", err)
	}
	return string(b) + p.out.String(), nil
}

// owns compares the server's process id with the child's.
func (p *process) owns(ctx context.Context, c *redis.Client) (bool, error) {
	info := c.InfoMap(ctx, "server")
	if err := info.Err(); err != nil {
		return false, fatalReply(err)
	}
	return info.Item("Server", "process_id") == strconv.Itoa(p.cmd.Process.Pid), nil
}

// close asks the server to SHUTDOWN NOSAVE, kills it if it has not exited
// within a few seconds, and removes the temporary directory.
func (p *process) close(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	select {
	case <-p.done:
	default:
		// Whether SHUTDOWN answers or not, the server is killed if it is
		// still there when the time is up: it has nothing to save.
		c := newPollClient(p.addr)
		_ = c.ShutdownNoSave(ctx).Err()
		c.Close()
		select {
		case <-p.done:
		case <-ctx.Done():
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}
	log, logErr := p.log(ctx)
	if err := os.RemoveAll(p.dir); err != nil {
		return log, fmt.Errorf("remove redis directory: %w", err)
	}
	return log, logErr
}

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
