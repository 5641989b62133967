package encoder

// A throwaway redis-server helper for these tests, until package server and
// internal/redistest land on main; then the tests move to server.Start.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// needRedis returns the path of a redis binary, skipping the test when it is missing, and
// failing it in CI (CI=true), where a missing server is a broken machine.
func needRedis(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed, and CI is set: tests against a real Redis must run", name)
	}
	t.Skipf("%s not installed", name)
	return ""
}

// redisConn is a minimal RESP client.
type redisConn struct {
	c net.Conn
	r *bufio.Reader
}

// startRedis starts redis-server on dir/dump.rdb with extra config arguments and returns a
// client once the dataset is loaded. The server is stopped when the test ends.
func startRedis(t *testing.T, dir string, args ...string) *redisConn {
	t.Helper()
	bin := needRedis(t, "redis-server")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	argv := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", dir, "--dbfilename", "dump.rdb", "--enable-debug-command", "yes",
		"--logfile", filepath.Join(dir, "redis.log")}, args...)
	cmd := exec.Command(bin, argv...)
	must(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			rc := &redisConn{c: c, r: bufio.NewReader(c)}
			t.Cleanup(func() { c.Close() })
			if _, err := rc.do("PING"); err == nil {
				return rc
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
			t.Fatalf("redis-server did not load the file:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// do sends a command and returns its reply flattened to strings.
func (r *redisConn) do(args ...string) ([]string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := r.c.Write([]byte(b.String())); err != nil {
		return nil, err
	}
	return r.read()
}

func (r *redisConn) read() ([]string, error) {
	line, err := r.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	switch line[0] {
	case '+', ':':
		return []string{line[1:]}, nil
	case '-':
		return nil, fmt.Errorf("redis: %s", line[1:])
	case '$':
		n, _ := strconv.Atoi(line[1:])
		if n < 0 {
			return nil, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r.r, buf); err != nil {
			return nil, err
		}
		return []string{string(buf[:n])}, nil
	case '*':
		n, _ := strconv.Atoi(line[1:])
		var out []string
		for range n {
			v, err := r.read()
			if err != nil {
				return nil, err
			}
			out = append(out, v...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("redis: unexpected reply %q", line)
}
