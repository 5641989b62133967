package diff_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/diff"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// expireAt is an absolute expiry, so that two servers started apart write the same one.
var expireAt = time.Now().Add(24 * time.Hour).Truncate(time.Second)

// fill writes one key of each type, with expiries, a stream with a group, and keys in db 1
// and 2 (one name in both).
func fill(ctx context.Context, c *redis.Client) error {
	p := c.Pipeline()
	p.Set(ctx, "str", "v1", 0)
	p.Set(ctx, "gone", "x", 0)
	p.Set(ctx, "ttl", "t", 0)
	p.PExpireAt(ctx, "ttl", expireAt)
	p.RPush(ctx, "list", "a", "b", "c", 1, 2, 3)
	p.SAdd(ctx, "ints", 1, 2, 3, 400000)
	p.SAdd(ctx, "set", "x", "y", "z", 7)
	p.ZAdd(ctx, "zset", redis.Z{Score: 1.5, Member: "a"}, redis.Z{Score: -2, Member: "b"}, redis.Z{Score: 0, Member: "c"})
	p.HSet(ctx, "hash", "f1", "v1", "f2", 2)
	p.XAdd(ctx, &redis.XAddArgs{Stream: "stream", ID: "1-1", Values: []string{"k", "v"}})
	p.XAdd(ctx, &redis.XAddArgs{Stream: "stream", ID: "2-1", Values: []string{"k", "w"}})
	p.XGroupCreate(ctx, "stream", "g", "0")
	p.Do(ctx, "SELECT", 1)
	p.Set(ctx, "both", "in db 1", 0)
	p.Do(ctx, "SELECT", 2)
	p.Set(ctx, "both", "in db 2", 0)
	p.Do(ctx, "SELECT", 0)
	_, err := p.Exec(ctx)
	if err != nil {
		return err
	}
	if err := c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c1", Streams: []string{"stream", ">"}, Count: 1}).Err(); err != nil {
		return err
	}
	// The delivery time is the server's clock: set it (in the past: Redis takes a future
	// time as now), so that two servers agree.
	return c.Do(ctx, "XCLAIM", "stream", "g", "c1", 0, "1-1", "TIME", 1700000000000, "RETRYCOUNT", 1, "JUSTID").Err()
}

// change makes the known changes after fill.
func change(ctx context.Context, c *redis.Client) error {
	if err := fill(ctx, c); err != nil {
		return err
	}
	p := c.Pipeline()
	p.Do(ctx, "SELECT", 0)
	p.Del(ctx, "gone")
	p.Set(ctx, "added", "new", 0)
	p.Set(ctx, "str", "v2", 0)
	p.PExpireAt(ctx, "ttl", expireAt.Add(time.Hour))
	p.HSet(ctx, "hash", "f3", "v3")
	p.Do(ctx, "SELECT", 2)
	p.Set(ctx, "both", "changed in db 2", 0)
	_, err := p.Exec(ctx)
	return err
}

func compare(t *testing.T, a, b string, opts diff.Options) *diff.Result {
	t.Helper()
	res, err := diff.Compare(context.Background(), decoder.File{Path: a}, decoder.File{Path: b}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCompareServerDumps(t *testing.T) {
	base := redistest.WriteDumpWith(t, nil, fill)
	// The same commands into a server that encodes every collection otherwise (hashtables,
	// quicklists of one-element nodes): the same data.
	other := redistest.WriteDumpWith(t, []string{"--set-max-intset-entries", "0",
		"--hash-max-listpack-entries", "0", "--zset-max-listpack-entries", "0", "--list-max-listpack-size", "1"}, fill)
	changed := redistest.WriteDumpWith(t, nil, change)

	if res := compare(t, base, other, diff.Options{}); !res.Same() {
		t.Errorf("same commands, other encodings: differ: %+v", res)
	}
	res := compare(t, base, changed, diff.Options{})
	if res.Same() {
		t.Fatal("the changed dump compares the same")
	}
	var got []string
	for _, k := range res.Keys {
		got = append(got, strings.Join([]string{string(rune('0' + k.DB)), string(k.Key), k.Kind, strings.Join(k.Fields, "+")}, " "))
	}
	want := []string{
		"0 added only_b ",
		"0 gone only_a ",
		"0 hash changed value",
		"0 str changed value",
		"0 ttl changed expiry",
		"2 both changed value",
	}
	if !slices.Equal(got, want) {
		t.Errorf("named:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.Differences != uint64(len(want)) {
		t.Errorf("Differences %d, want %d", res.Differences, len(want))
	}
	if res := compare(t, base, changed, diff.Options{KeysOnly: true}); res.Differences != 2 {
		t.Errorf("--keys-only: %d differences, want 2 (added, gone)", res.Differences)
	}
	if res := compare(t, base, changed, diff.Options{IgnoreTTL: true}); res.Differences != 5 {
		t.Errorf("--ignore-ttl: %d differences, want 5", res.Differences)
	}
	if res := compare(t, base, changed, diff.Options{Limit: 2}); len(res.Keys) != 2 || res.Differences != 6 {
		t.Errorf("Limit 2: %d named, %d counted; want 2, 6", len(res.Keys), res.Differences)
	}
}
