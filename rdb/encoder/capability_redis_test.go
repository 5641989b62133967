package encoder_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// capabilityReads check, in a server that loaded a capability case, that it holds what the
// case wrote; one for each feature RDB 10 holds.
var capabilityReads = map[rdb.Feature]func(t *testing.T, ctx context.Context, c *redis.Client){
	rdb.BinaryScores: func(t *testing.T, ctx context.Context, c *redis.Client) {
		got, err := c.ZRangeWithScores(ctx, capKey, 0, -1).Result()
		want := zsetOf(capKey, 200).Members
		if err != nil || len(got) != len(want) {
			t.Fatalf("ZRANGE: %d members (%v), want %d", len(got), err, len(want))
		}
		for i, m := range want {
			if got[i].Member != string(m.Name) || got[i].Score != m.Score {
				t.Fatalf("ZRANGE %d: %v %v, want %s %v", i, got[i].Member, got[i].Score, m.Name, m.Score)
			}
		}
	},
	rdb.Streams: func(t *testing.T, ctx context.Context, c *redis.Client) {
		got, err := c.XRange(ctx, capKey, "-", "+").Result()
		want := []redis.XMessage{{ID: "1-0", Values: map[string]any{"a": "1"}}, {ID: "3-0", Values: map[string]any{"b": "3"}}}
		if err != nil || len(got) != 2 || got[0].ID != want[0].ID || got[0].Values["a"] != "1" || got[1].ID != want[1].ID || got[1].Values["b"] != "3" {
			t.Fatalf("XRANGE: %v (%v), want %v", got, err, want)
		}
	},
	rdb.StreamMetadata: func(t *testing.T, ctx context.Context, c *redis.Client) {
		s, err := c.XInfoStreamFull(ctx, capKey, 0).Result()
		if err != nil || len(s.Groups) != 1 {
			t.Fatalf("XINFO STREAM FULL: %+v (%v)", s, err)
		}
		if s.MaxDeletedEntryID != "2-0" || s.EntriesAdded != 3 || s.Groups[0].EntriesRead != 3 {
			t.Errorf("XINFO STREAM FULL: max-deleted-entry-id %s, entries-added %d, entries-read %d; want 2-0, 3, 3",
				s.MaxDeletedEntryID, s.EntriesAdded, s.Groups[0].EntriesRead)
		}
	},
	rdb.Functions: func(t *testing.T, ctx context.Context, c *redis.Client) {
		libs := redistest.FunctionList(t, c)
		if len(libs) != 1 || libs[0].Name != "caplib" || libs[0].Code != string(capLibrary) {
			t.Errorf("FUNCTION LIST: %+v, want caplib with its code", libs)
		}
	},
	rdb.ListpackEncodings: func(t *testing.T, ctx context.Context, c *redis.Client) {
		for key, want := range map[string]string{capKey + ":h": "listpack", capKey + ":z": "listpack", capKey + ":l": "quicklist"} {
			if enc, err := c.ObjectEncoding(ctx, key).Result(); err != nil || enc != want {
				t.Errorf("OBJECT ENCODING %s: %s (%v), want %s", key, enc, err, want)
			}
		}
		h, err := c.HGetAll(ctx, capKey+":h").Result()
		l, err2 := c.LRange(ctx, capKey+":l", 0, -1).Result()
		if err != nil || err2 != nil || len(h) != 1 || h["f"] != "v" || !slices.Equal(l, []string{"a", "b"}) {
			t.Errorf("HGETALL %v (%v), LRANGE %v (%v)", h, err, l, err2)
		}
	},
	rdb.PlainListNodes: func(t *testing.T, ctx context.Context, c *redis.Client) {
		got, err := c.LRange(ctx, capKey, 0, -1).Result()
		if err != nil || len(got) != 2 || got[0] != "a" || len(got[1]) != 8193 {
			t.Fatalf("LRANGE: %d elements (%v), want a and 8193 bytes", len(got), err)
		}
	},
}

// TestCapabilitiesInRedis checks the table against redis-server 7.0.15, which loads RDB 10:
// the file of each feature the table says RDB 10 holds (written for redis-7.0, or for the
// first target that makes it, as RDB 10) loads and reads back; the file of each other
// feature, written for the first target that holds it with its header changed to RDB 10, is
// refused, while the same file without the feature's records loads.
func TestCapabilitiesInRedis(t *testing.T) {
	redistest.RedisServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, f := range rdb.Features() {
		if f == rdb.ModuleValues || f == rdb.ModuleAux {
			continue // a server loads them only with their module: internal/moduletest loads them so
		}
		t.Run(f.String(), func(t *testing.T) {
			c := capabilityCases[f]
			first, ok := rdb.FirstTarget(f)
			if !ok {
				t.Fatalf("no target holds %s", f)
			}
			if rdb.Can(10, f) {
				opts := encoder.Options{Target: "redis-7.0"}
				if caps, err := opts.Check(); err != nil || !caps.Can(f) {
					opts = encoder.Options{Target: first.Name, RDBVersion: 10}
				}
				if caps, err := opts.Check(); err != nil || !caps.Can(f) {
					t.Fatalf("%s at RDB %d: %v, and it cannot hold %s", opts.Target, opts.RDBVersion, err, f)
				}
				inst, err := startOn(t, ctx, opts, c)
				if err != nil {
					t.Fatalf("%s at RDB %d: %v", opts.Target, opts.RDBVersion, err)
				}
				defer inst.Close(ctx)
				read := capabilityReads[f]
				if read == nil {
					t.Fatalf("no read of %s in the server", f)
				}
				read(t, ctx, inst.Client())
				return
			}
			opts := encoder.Options{Target: first.Name, DisableChecksum: true}
			_, err := startOn(t, ctx, opts, c, asRDB10)
			if !errors.Is(err, server.ErrLoadRefused) {
				t.Fatalf("%s's records as RDB 10: %v, want the load refused", f, err)
			}
			t.Logf("refused: %v", err)
			plain := capabilityCase{records: []record.Record{{Key: []byte(capKey), Type: record.String, Value: []byte("v")}}}
			inst, err := startOn(t, ctx, opts, plain, asRDB10)
			if err != nil {
				t.Fatalf("a file for %s without %s, as RDB 10: %v", first.Name, f, err)
			}
			inst.Close(ctx)
		})
	}
}

// asRDB10 changes a file's header to RDB 10.
func asRDB10(file []byte) { copy(file[5:9], "0010") }

// startOn writes c under opts, changed by change, and starts redis-server on it.
func startOn(t *testing.T, ctx context.Context, opts encoder.Options, c capabilityCase, change ...func([]byte)) (*server.Instance, error) {
	t.Helper()
	file, err := writeCase(opts, c)
	if err != nil {
		t.Fatalf("%s at RDB %d: %v", opts.Target, opts.RDBVersion, err)
	}
	for _, ch := range change {
		ch(file)
	}
	path := filepath.Join(t.TempDir(), "dump.rdb")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	return server.Start(ctx, path, server.Options{Backend: server.BackendProcess})
}
