package cluster_test

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/server"
)

// emptyDump writes an RDB file without keys.
func emptyDump(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := rdbsink.NewWriter(f, encoder.Options{})
	if err == nil {
		err = w.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// startNodes starts n empty cluster-enabled redis-servers. Each cluster bus gets a free
// port: the default, the server's port plus 10000, is out of range above port 55535.
func startNodes(t *testing.T, ctx context.Context, n int) []*server.Instance {
	t.Helper()
	dump := emptyDump(t)
	nodes := make([]*server.Instance, n)
	for i := range nodes {
		bus, err := server.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		opts := server.Options{Backend: server.BackendProcess, RedisServer: redistest.RedisServer(t),
			Args: []string{"--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(bus)}}
		inst, err := server.Start(ctx, dump, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { inst.Close(context.Background()) })
		nodes[i] = inst
	}
	return nodes
}

// TestSlotMatchesRedis compares Slot with a real server's CLUSTER KEYSLOT on random keys
// made of few distinct bytes, braces among them, so that hash tags of every shape occur.
func TestSlotMatchesRedis(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := startNodes(t, ctx, 1)[0].Client()
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "{}{}ab\x00\xff:"
	keys := make([]string, 20000)
	for i := range keys {
		b := make([]byte, rng.IntN(12))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		keys[i] = string(b)
	}
	cmds := make([]*redis.IntCmd, len(keys))
	p := c.Pipeline()
	for i, k := range keys {
		cmds[i] = p.ClusterKeySlot(ctx, k)
	}
	if _, err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	tagged := 0
	for i, k := range keys {
		if got, want := cluster.KeySlot(k), int(cmds[i].Val()); got != want {
			t.Fatalf("KeySlot(%q) = %d, CLUSTER KEYSLOT says %d", k, got, want)
		}
		if len(cluster.HashTag([]byte(k))) < len(k) {
			tagged++
		}
	}
	if tagged < len(keys)/10 {
		t.Fatalf("only %d keys have a hash tag", tagged)
	}
}

// TestEvenMatchesRedisCLICreate has redis-cli --cluster create make a cluster of five
// primaries, reads its layout back from CLUSTER NODES and compares it with Even(5).
func TestEvenMatchesRedisCLICreate(t *testing.T) {
	cli := redistest.RedisCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nodes := startNodes(t, ctx, 5)
	args := []string{"--cluster", "create"}
	for _, n := range nodes {
		args = append(args, n.Addr)
	}
	args = append(args, "--cluster-yes")
	if out, err := exec.CommandContext(ctx, cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	text, err := nodes[0].Client().ClusterNodes(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	got, err := cluster.ParseLayout(strings.NewReader(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	want, _ := cluster.Even(5)
	for i := range want.Len() {
		if g, w := got.Shard(i).RangesString(), want.Shard(i).RangesString(); g != w {
			t.Errorf("shard %d: redis-cli gave %s, Even gives %s", i, g, w)
		}
	}
}
