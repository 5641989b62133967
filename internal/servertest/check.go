package servertest

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/server"
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

// CheckStrings checks, key by key, that database d.DB of the server at addr
// holds exactly the records of d: as many keys, each with its value and
// expiry. An expiry may be late by up to slack (0 for an exact expiry, as
// PXAT and RDB files give).
func CheckStrings(t testing.TB, addr string, d *dataset.Spec, slack time.Duration) {
	t.Helper()
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: addr, DB: d.DB})
	defer c.Close()
	n, err := c.DBSize(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	if uint64(n) != d.Count {
		t.Fatalf("DBSIZE of db %d is %d, want %d", d.DB, n, d.Count)
	}
	const chunk = 1000
	for first := uint64(0); first < d.Count; first += chunk {
		pipe := c.Pipeline()
		end := min(first+chunk, d.Count)
		values := make([]*redis.StringCmd, 0, chunk)
		expiries := make([]*redis.Cmd, 0, chunk)
		for i := first; i < end; i++ {
			key := string(d.AppendKey(nil, i))
			values = append(values, pipe.Get(ctx, key))
			expiries = append(expiries, pipe.Do(ctx, "PEXPIRETIME", key))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			t.Fatalf("read keys %d to %d: %v", first, end-1, err)
		}
		for k := range values {
			i := first + uint64(k)
			key := d.AppendKey(nil, i)
			if got, want := values[k].Val(), string(d.AppendValue(nil, i)); got != want {
				t.Fatalf("key %q holds %.40q, want %.40q", key, got, want)
			}
			got, err := expiries[k].Int64()
			if err != nil {
				t.Fatalf("PEXPIRETIME %q: %v", key, err)
			}
			want := d.ExpireAtMS(i)
			if want == 0 {
				want = -1 // PEXPIRETIME of a key without expiry
			}
			if got < want || got > want+slack.Milliseconds() {
				t.Fatalf("key %q expires at %d ms, want %d (slack %v)", key, got, want, slack)
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
