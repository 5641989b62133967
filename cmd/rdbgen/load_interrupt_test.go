package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestLoadInterruptedLeavesNoTemporaryKey sends SIGINT to load by restore and auto (one
// connection and four), by mass and by pipeline, several times each, once the server holds some of the keys: the
// exit status is 130, no temporary key remains, and the keys the message counts as
// confirmed are the keys the server holds. Hashes of 1.1 MB each, over the server's
// proto-max-bulk-len of 1 MB, go as commands under temporary names; 100,000 small hashes
// keep many round trips in flight.
func TestLoadInterruptedLeavesNoTemporaryKey(t *testing.T) {
	bin := buildRdbgen(t)
	ctx := context.Background()
	dir := t.TempDir()
	big, small := filepath.Join(dir, "big.rdb"), filepath.Join(dir, "small.rdb")
	for _, args := range [][]string{
		{"--count", "20", "--type", "hash", "--members", "1100", "--value", "random", "--value-size", "1000", "-o", big},
		{"--count", "100000", "--type", "hash", "-o", small},
	} {
		if _, stderr, err := run(t, ctx, append(args, "-q")...); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
	}
	srv := servertest.StartEmpty(t, "--proto-max-bulk-len", "1mb")
	c := srv.Client()
	confirmed := regexp.MustCompile(`interrupted: (\d+) keys confirmed`)
	for _, file := range []string{big, small} {
		for _, method := range [][]string{{"restore"}, {"restore", "--workers", "4"}, {"mass"}, {"pipeline", "--workers", "4"}, {"auto"}, {"auto", "--workers", "4"}} {
			for try := range 3 {
				if err := c.FlushAll(ctx).Err(); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(bin, append([]string{"load", "--addr", srv.Addr, file, "--method"}, method...)...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				for deadline := time.Now().Add(30 * time.Second); c.DBSize(ctx).Val() < 2+int64(try) && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
				cmd.Process.Signal(syscall.SIGINT)
				cmd.Wait()
				name := filepath.Base(file) + " " + strconv.Quote(method[0]) + " try " + strconv.Itoa(try)
				if len(method) > 1 {
					name += " --workers 4"
				}
				temps, err := c.Keys(ctx, "*rdbgen-tmp*").Result()
				if err != nil {
					t.Fatal(err)
				}
				if len(temps) > 0 {
					t.Errorf("%s: temporary keys left: %q", name, temps)
				}
				held := c.DBSize(ctx).Val()
				m := confirmed.FindStringSubmatch(stderr.String())
				if code := cmd.ProcessState.ExitCode(); code != 130 || m == nil {
					if code == 0 && held == 20 || code == 0 && held == 100000 {
						continue // done before the signal
					}
					t.Errorf("%s: exit status %d, stderr %q", name, code, stderr.String())
					continue
				}
				if n, _ := strconv.ParseInt(m[1], 10, 64); n != held {
					t.Errorf("%s: %d keys confirmed, the server holds %d", name, n, held)
				}
			}
		}
	}
}
