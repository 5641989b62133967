package live_test

import (
	"context"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
)

// benchKeys is the size of the benchmarks' server: strings of 64 bytes.
const benchKeys = 1_000_000

// BenchmarkLive reads a server of benchKeys strings into an RDB file written to io.Discard,
// by sync and by scan, beside redis-cli --rdb of the same server (the server's own snapshot
// saved to a file, the baseline of sync): go test -run '^$' -bench Live -benchtime 3x ./live
func BenchmarkLive(b *testing.B) {
	src := servertest.StartEmpty(b, "--enable-debug-command", "yes", "--repl-diskless-sync", "no")
	c := redis.NewClient(&redis.Options{Addr: src.Addr, Protocol: 2})
	defer c.Close()
	if err := c.Do(context.Background(), "DEBUG", "POPULATE", benchKeys, "key", 64).Err(); err != nil {
		b.Fatal(err)
	}
	host, port, err := net.SplitHostPort(src.Addr)
	if err != nil {
		b.Fatal(err)
	}
	cli := redistest.RedisCLI(b)
	out := filepath.Join(b.TempDir(), "cli.rdb")
	for _, via := range []live.Via{"redis-cli", live.Sync, live.Scan} {
		b.Run(string(via), func(b *testing.B) {
			for b.Loop() {
				if via == "redis-cli" {
					if msg, err := exec.Command(cli, "-h", host, "-p", port, "--rdb", out).CombinedOutput(); err != nil {
						b.Fatalf("%v: %s", err, msg)
					}
					continue
				}
				s, err := live.Open("redis://"+src.Addr, live.Options{Via: via})
				if err != nil {
					b.Fatal(err)
				}
				w, err := rdbsink.NewWriter(io.Discard, encoder.Options{Target: "redis-7.0", CountsAreHints: true})
				if err != nil {
					b.Fatal(err)
				}
				if err := s.WriteTo(context.Background(), w); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchKeys*b.N)/b.Elapsed().Seconds(), "keys/s")
		})
	}
}
