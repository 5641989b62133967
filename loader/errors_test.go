package loader_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// closedAddr returns a loopback address where nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// nearlyFull sets maxmemory on inst a little above what it uses, with
// noeviction, so that SETs fail with OOM once about a megabyte is stored.
func nearlyFull(t *testing.T, inst *server.Instance) {
	t.Helper()
	ctx := context.Background()
	c := inst.Client()
	info, err := c.InfoMap(ctx, "memory").Result()
	if err != nil {
		t.Fatal(err)
	}
	used, err := strconv.ParseInt(info["Memory"]["used_memory"], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "maxmemory", strconv.FormatInt(used+1<<20, 10)).Err(); err != nil {
		t.Fatal(err)
	}
}

// TestLoadErrors checks that each way a load can fail gives an error that
// says what went wrong and how many keys the server confirmed, and that the
// count is right.
func TestLoadErrors(t *testing.T) {
	small := dataset.Config{Count: 100, KeyPrefix: "k", DB: 2}
	// About 5 MB: more than nearlyFull leaves room for.
	large := dataset.Config{Count: 20000, KeyPrefix: "k", Value: dataset.ValueRandom, ValueSize: 200, Seed: 1, DB: 2}

	refused := closedAddr(t)
	locked := servertest.StartEmpty(t)
	servertest.RequirePass(t, locked, "secret")

	methods := []loader.Options{
		{Method: loader.Sequential},
		{Method: loader.Parallel, Workers: 4},
		{Method: loader.Pipeline, Batch: 100, Workers: 2},
		{Method: loader.Mass},
	}
	tests := []struct {
		name string
		d    dataset.Config
		// server returns the address to load into and the password to use.
		server func(t *testing.T) (addr, password string)
		want   string
		// midway: some keys but not all must be confirmed; otherwise none.
		midway bool
	}{
		{"connection refused", small, func(*testing.T) (string, string) { return refused, "" }, "connect: dial tcp " + refused + ": connect: connection refused", false},
		{"wrong password", small, func(*testing.T) (string, string) { return locked.Addr, "guess" }, "connect: WRONGPASS", false},
		{"no password", small, func(*testing.T) (string, string) { return locked.Addr, "" }, "connect: NOAUTH", false},
		{"out of memory mid-way", large, func(t *testing.T) (string, string) {
			inst := servertest.StartEmpty(t)
			nearlyFull(t, inst)
			return inst.Addr, ""
		}, "OOM command not allowed when used memory > 'maxmemory'", true},
	}
	for _, tt := range tests {
		for _, opts := range methods {
			t.Run(fmt.Sprintf("%s/%s", tt.name, opts.Method), func(t *testing.T) {
				opts.Addr, opts.Password = tt.server(t)
				res, err := loader.Load(t.Context(), &tt.d, opts)
				var le *loader.Error
				if !errors.As(err, &le) {
					t.Fatalf("got %v (%T), want a *loader.Error", err, err)
				}
				msg := err.Error()
				t.Log(msg)
				want := fmt.Sprintf("load into %s stopped with %d of %d keys confirmed: ", opts.Addr, le.Confirmed, tt.d.Count)
				if !strings.HasPrefix(msg, want) || !strings.Contains(msg, tt.want) {
					t.Fatalf("got %q, want %q…%q", msg, want, tt.want)
				}
				if res.Keys != le.Confirmed {
					t.Fatalf("result says %d keys, the error %d", res.Keys, le.Confirmed)
				}
				if !tt.midway {
					if le.Confirmed != 0 {
						t.Fatalf("%d keys confirmed, want 0", le.Confirmed)
					}
					return
				}
				if le.Confirmed == 0 || le.Confirmed >= tt.d.Count {
					t.Fatalf("%d keys confirmed, want some but not all", le.Confirmed)
				}
				if !strings.Contains(msg, `write key "k`) {
					t.Fatalf("%q does not name the key that failed", msg)
				}
				// Every key sent was answered: the server holds exactly the confirmed ones.
				c := servertest.Client(t, opts.Addr, tt.d.DB)
				if n := c.DBSize(t.Context()).Val(); uint64(n) != le.Confirmed {
					t.Fatalf("DBSIZE %d, but %d keys confirmed", n, le.Confirmed)
				}
			})
		}
	}
}

// TestLoadStopsWhenCancelled cancels loads mid-way: each stops soon, with
// context.Canceled and the count of keys confirmed so far.
func TestLoadStopsWhenCancelled(t *testing.T) {
	d := dataset.Config{Count: 2_000_000, KeyPrefix: "k"}
	for _, m := range loader.Methods() {
		t.Run(string(m), func(t *testing.T) {
			inst := servertest.StartEmpty(t)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			opts := loader.Options{Addr: inst.Addr, Method: m, Progress: func(p record.Progress) {
				if p.Keys > 0 {
					cancel()
				}
			}}
			start := time.Now()
			res, err := loader.Load(ctx, &d, opts)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Fatalf("stopping took %v", took)
			}
			if res.Keys == 0 || res.Keys == d.Count || !strings.Contains(err.Error(), fmt.Sprintf("stopped with %d of %d keys confirmed: context canceled", res.Keys, d.Count)) {
				t.Fatalf("result %+v, error %v", res, err)
			}
			c := servertest.Client(t, inst.Addr, d.DB)
			if n := c.DBSize(t.Context()).Val(); uint64(n) < res.Keys {
				t.Fatalf("DBSIZE %d, but %d keys confirmed", n, res.Keys)
			}
		})
	}
}
