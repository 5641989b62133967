package servertest

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// A Loaded is what a real server holds once it has loaded a file.
type Loaded struct {
	Bytes int64  // used_memory minus an empty server's (started with the same arguments)
	Keys  uint64 // keys in all databases
}

// Measure loads the RDB file at path into a local redis-server started with args and
// returns what it holds: the oracle of the memory estimates.
func Measure(t testing.TB, path string, args ...string) Loaded {
	t.Helper()
	empty := StartEmpty(t, args...)
	base := UsedMemory(t, empty.Client())
	if err := empty.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	inst := Start(t, path, args...)
	m := Loaded{Bytes: UsedMemory(t, inst.Client()) - base, Keys: KeyCount(t, inst.Client())}
	if err := inst.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

// KeyCount returns the keys of every database of a server, from INFO keyspace.
func KeyCount(t testing.TB, c *redis.Client) uint64 {
	t.Helper()
	info, err := c.Info(context.Background(), "keyspace").Result()
	if err != nil {
		t.Fatal(err)
	}
	var total uint64
	for line := range strings.SplitSeq(info, "\r\n") {
		if _, kv, ok := strings.Cut(line, ":keys="); ok && strings.HasPrefix(line, "db") {
			n, err := strconv.ParseUint(kv[:strings.IndexByte(kv, ',')], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			total += n
		}
	}
	return total
}
