package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestLostPendingSummary: load and --format resp say which streams went as RESTORE, what
// --drop-lost-pending left out (in text and --json), and that consumers made by commands
// have the load's times; --drop-lost-pending without --format resp is refused.
func TestLostPendingSummary(t *testing.T) {
	dump := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		for _, cmd := range [][]any{
			{"XADD", "dp", "1-1", "f", "1"}, {"XADD", "dp", "2-1", "f", "2"},
			{"XGROUP", "CREATE", "dp", "g", "0"},
			{"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "dp", ">"},
			{"XDEL", "dp", "1-1"},
			{"XADD", "clean", "1-1", "f", "1"},
			{"XGROUP", "CREATE", "clean", "g", "0"},
			{"XREADGROUP", "GROUP", "g", "bob", "COUNT", "1", "STREAMS", "clean", ">"},
		} {
			if err := c.Do(ctx, cmd...).Err(); err != nil {
				return err
			}
		}
		return nil
	})
	inst := servertest.StartEmpty(t)
	ctx := context.Background()

	// By pipeline: auto (the default) sends every stream as RESTORE, none for want of commands.
	stdout, _, err := run(t, ctx, "load", "--addr", inst.Addr, "--method", "pipeline", dump)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"loaded 2 keys", "streams: 1 streams sent as RESTORE", "the 1 stream consumers made by commands have the load's seen and active times"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("load: %q lacks %q", stdout, want)
		}
	}

	stdout, _, err = run(t, ctx, "load", "--addr", inst.Addr, "--method", "pipeline", "--json", "--drop-lost-pending", dump)
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Streams map[string]uint64 `json:"streams"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Streams["lost_pending"] != 1 || sum.Streams["restored"] != 0 {
		t.Errorf("load --drop-lost-pending --json: %v %s", err, stdout)
	}

	out := filepath.Join(t.TempDir(), "data.resp")
	stdout, _, err = run(t, ctx, "convert", dump, "--format", "resp", "--target", "redis-7.0", "-o", out)
	if err != nil || !strings.Contains(stdout, "streams: 1 streams sent as RESTORE") {
		t.Errorf("convert --format resp: %v %q", err, stdout)
	}
	servertest.Pipe(t, inst.Addr, out)

	_, _, err = run(t, ctx, "convert", dump, "--drop-lost-pending", "-o", filepath.Join(t.TempDir(), "x.rdb"))
	if err == nil || !strings.Contains(err.Error(), "--drop-lost-pending goes with --format resp") {
		t.Errorf("convert --drop-lost-pending to an RDB file: %v", err)
	}
}
