package redistest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// WriteDump returns the path of a new RDB file, in a test temporary
// directory, that holds the string keys of kv in database 0. A real
// redis-server writes it with SAVE.
func WriteDump(t testing.TB, kv map[string]string) string {
	t.Helper()
	return writeDump(t, func(ctx context.Context, c *redis.Client) error {
		if len(kv) == 0 {
			return nil
		}
		return c.MSet(ctx, kv).Err()
	})
}

// WriteBigDump returns the path of a new RDB file of n keys "key:0" …
// "key:<n-1>" with values "value:0" …, made with DEBUG POPULATE. A million
// keys take the server most of a second to load.
func WriteBigDump(t testing.TB, n int) string {
	t.Helper()
	return writeDump(t, func(ctx context.Context, c *redis.Client) error {
		return c.Do(ctx, "DEBUG", "POPULATE", n).Err()
	})
}

// WriteDumpWith returns the path of a new RDB file that a real redis-server writes with
// SAVE after fill has run on it (debug commands enabled).
func WriteDumpWith(t testing.TB, fill func(context.Context, *redis.Client) error) string {
	t.Helper()
	return writeDump(t, fill)
}

// writeDump runs redis-server in a temporary directory, fills it with fill,
// has it SAVE and copies the file into another temporary directory, which
// holds nothing else.
func writeDump(t testing.TB, fill func(context.Context, *redis.Client) error) string {
	t.Helper()
	bin := RedisServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	work := t.TempDir()
	port := freePort(t)
	cmd := exec.Command(bin,
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--dir", work, "--save", "", "--appendonly", "no",
		"--enable-debug-command", "yes",
		"--logfile", filepath.Join(work, "redis.log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()

	// Dial until the port answers: go-redis would log every failed dial.
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			break
		}
		select {
		case <-ctx.Done():
			log, _ := os.ReadFile(filepath.Join(work, "redis.log"))
			t.Fatalf("redis-server does not answer:\n%s", log)
		case <-time.After(10 * time.Millisecond):
		}
	}
	// No retries: SHUTDOWN ends the connection, and a retry would redial. DEBUG
	// POPULATE and SAVE of a million keys can outlast go-redis's 5 s read timeout
	// while other test packages load the machine: allow them the whole minute.
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, ReadTimeout: time.Minute})
	defer c.Close()
	fatal := func(err error) {
		t.Helper()
		log, _ := os.ReadFile(filepath.Join(work, "redis.log"))
		t.Fatalf("%v; redis-server log:\n%s", err, log)
	}
	if err := fill(ctx, c); err != nil {
		fatal(err)
	}
	if err := c.Save(ctx).Err(); err != nil {
		fatal(err)
	}
	if err := c.ShutdownNoSave(ctx).Err(); err != nil {
		fatal(err)
	}
	_ = cmd.Wait()

	b, err := os.ReadFile(filepath.Join(work, "dump.rdb"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dump.rdb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// FileSum returns the SHA-256 of a file, in hex, for checking that a file
// was left as it was.
func FileSum(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ChangeFile rewrites the file at path with change applied to its bytes: a damaged copy of
// a good file, say.
func ChangeFile(t testing.TB, path string, change func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, change(b), 0o644); err != nil {
		t.Fatal(err)
	}
}
