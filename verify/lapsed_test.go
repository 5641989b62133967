package verify_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

// TestFileKeysLapsedAfterSave checks a dump that a real server wrote with keys whose TTL
// lapsed after the save: the server that loads it drops them, and the verification expects
// what is alive at load time, offline and with a server, in two databases.
func TestFileKeysLapsedAfterSave(t *testing.T) {
	const ttl = 1500 * time.Millisecond // long enough for the SAVE to come first, even on a busy machine
	var start time.Time                 // when the keys were set: the server's start-up comes before
	path := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		start = time.Now()
		p := c.Pipeline()
		p.Set(ctx, "short1", "x", ttl)
		p.Set(ctx, "short2", "x", ttl)
		p.Set(ctx, "long", "x", time.Hour)
		p.Set(ctx, "plain", "x", 0)
		p.Select(ctx, 2)
		p.Set(ctx, "short3", "x", ttl)
		_, err := p.Exec(ctx)
		return err
	})
	time.Sleep(time.Until(start.Add(ttl + 200*time.Millisecond)))

	rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
	wantPass(t, rep, err)
	if f := rep.File; f.Keys != 5 || f.Expires != 4 || f.Expired != 3 {
		t.Fatalf("file report %+v", f)
	}
	for _, so := range []func(*testing.T) server.Options{processOptions, dockerOptions} {
		rep, err = verify.File(testContext(t), path, verify.Options{Server: so(t)})
		wantPass(t, rep, err)
		s := rep.Server
		if s.Keys != 2 || s.Expires != 1 || len(s.DBs) != 1 {
			t.Fatalf("server report %+v", s)
		}
	}
}
