package servertest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

// RequirePass sets a password on a running server, and takes it off again
// when the test ends, so that the server's Close can stop it.
func RequirePass(t testing.TB, inst *server.Instance, password string) {
	t.Helper()
	ctx := context.Background()
	if err := inst.Client().ConfigSet(ctx, "requirepass", password).Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c := redis.NewClient(&redis.Options{Addr: inst.Addr, Password: password})
		defer c.Close()
		if err := c.ConfigSet(ctx, "requirepass", "").Err(); err != nil {
			t.Errorf("clear requirepass: %v", err)
		}
	})
}

// Verify checks the server at addr against m with verify's live check,
// sampling every key: the counts per database, each key's type, value and
// TTL, and the keys just outside the dataset absent.
func Verify(t testing.TB, addr string, m *manifest.Manifest) {
	t.Helper()
	rep, err := verify.Server(context.Background(), &redis.Options{Addr: addr}, verify.Options{Manifest: m, Sample: int(m.Keys) + 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Pass {
		t.Fatalf("verify %s: %s", addr, rep.Reason)
	}
}

// CheckExpiries checks that every key of d in the server at addr expires at
// exactly the dataset's time, to the millisecond (PEXPIRETIME), as an RDB file
// or SET … PXAT gives it. verify allows a second of slack; this does not.
func CheckExpiries(t testing.TB, addr string, d *dataset.Config) {
	t.Helper()
	ctx := context.Background()
	c := Client(t, addr, d.DB)
	const chunk = 1000
	for first := uint64(0); first < d.Count; first += chunk {
		pipe := c.Pipeline()
		end := min(first+chunk, d.Count)
		cmds := make([]*redis.Cmd, 0, chunk)
		for i := first; i < end; i++ {
			cmds = append(cmds, pipe.Do(ctx, "PEXPIRETIME", string(d.AppendKey(nil, i))))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			t.Fatalf("PEXPIRETIME of keys %d to %d: %v", first, end-1, err)
		}
		for k, cmd := range cmds {
			i := first + uint64(k)
			want := d.ExpireAtMS(i)
			if want == 0 {
				want = -1 // no expiry
			}
			if got, _ := cmd.Int64(); got != want {
				t.Fatalf("key %q expires at %d ms, want %d", d.AppendKey(nil, i), got, want)
			}
		}
	}
}

// Client returns a client of database db of the server at addr, closed when
// the test ends.
func Client(t testing.TB, addr string, db int) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, DB: db})
	t.Cleanup(func() { c.Close() })
	return c
}

// UsedMemory returns the used_memory that INFO memory reports.
func UsedMemory(t testing.TB, c *redis.Client) int64 {
	t.Helper()
	info, err := c.Info(context.Background(), "memory").Result()
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no used_memory in INFO memory:\n%s", info)
	return 0
}

// Pipe feeds the RESP file at path to the server at addr with redis-cli --pipe, and fails
// the test unless every command succeeded.
func Pipe(t testing.TB, addr, path string) {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command(redistest.RedisCLI(t), "-h", host, "-p", port, "--pipe")
	cmd.Stdin = in
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "errors: 0,") {
		t.Fatalf("redis-cli --pipe: %v\n%s", err, out)
	}
}
