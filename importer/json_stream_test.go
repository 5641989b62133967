package importer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"
	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/server"
)

// TestJSONStreamsRoundTrip has redis-server 7.0 build streams with its own commands (groups,
// pending entries, deleted entries, an empty stream) and SAVE them; converts the dump with
// hdt3213's `rdb -c json` (helper.ToJsons); imports the JSON with rdbgen; and starts a server
// on the result: DEBUG DIGEST and XINFO STREAM FULL match the original server's. The tool
// prints a message's fields as a JSON object in no particular order; the importer puts the
// fields of a message that has its node's master fields back in their order, so the streams
// here give every entry of a node the same fields (in no name order), but for one.
func TestJSONStreamsRoundTrip(t *testing.T) {
	var digest string
	var infos = map[string]string{}
	keys := []string{"events", "jobs", "empty", "big"}
	xinfo := func(ctx context.Context, c *redis.Client) error {
		for _, k := range keys {
			v, err := c.Do(ctx, "XINFO", "STREAM", k, "FULL").Result()
			if err != nil {
				return err
			}
			infos[k] = fmt.Sprint(v)
		}
		return nil
	}
	dump := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		cmds := [][]any{
			{"XADD", "events", "1-1", "b", "x", "a", "1"},
			{"XADD", "events", "1-2", "c", "9"},
			{"XADD", "events", "2-0", "b", "2", "a", "1"},
			{"XDEL", "events", "1-2"},
			{"XADD", "jobs", "*", "payload", "{}", "id", "7"},
			{"XADD", "jobs", "*", "payload", "{\"x\":1}", "id", "8"},
			{"XGROUP", "CREATE", "jobs", "workers", "0"},
			{"XGROUP", "CREATE", "jobs", "late", "$"},
			{"XREADGROUP", "GROUP", "workers", "w1", "COUNT", "1", "STREAMS", "jobs", ">"},
			{"XGROUP", "CREATECONSUMER", "jobs", "workers", "idle"},
			{"XADD", "empty", "5-5", "f", "v"},
			{"XDEL", "empty", "5-5"},
			{"SET", "plain", "string"},
		}
		for i := range 300 {
			cmds = append(cmds, []any{"XADD", "big", "*", "v", strings.Repeat("v", i%50), "n", strconv.Itoa(i)})
		}
		for _, cmd := range cmds {
			if err := c.Do(ctx, cmd...).Err(); err != nil {
				return fmt.Errorf("%v: %w", cmd, err)
			}
		}
		var err error
		if digest, err = c.Do(ctx, "DEBUG", "DIGEST").Text(); err != nil {
			return err
		}
		return xinfo(ctx, c)
	})
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "dump.json")
	toJSON(t, dump, jsonPath)
	out := filepath.Join(dir, "imported.rdb")
	f, err := os.Create(out)
	must(t, err)
	w, err := rdbsink.NewWriter(f, encoder.Options{Target: "redis-7.0"})
	must(t, err)
	open := func() (Reader, error) {
		in, err := os.Open(jsonPath)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { in.Close() })
		return NewJSONReader(in), nil
	}
	if _, err := Copy(context.Background(), w, open, Options{}); err != nil {
		t.Fatal(err)
	}
	must(t, w.Close())
	must(t, f.Close())

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, out, server.Options{Backend: server.BackendProcess, Args: []string{"--enable-debug-command", "yes"}})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(context.Background())
	got, err := inst.Client().Do(ctx, "DEBUG", "DIGEST").Text()
	must(t, err)
	if got != digest {
		t.Errorf("DEBUG DIGEST %s after the round trip, want %s", got, digest)
	}
	want := infos
	infos = map[string]string{}
	must(t, xinfo(ctx, inst.Client()))
	for _, k := range keys {
		if infos[k] != want[k] {
			t.Errorf("%s: XINFO STREAM FULL\n%s\nwant\n%s", k, infos[k], want[k])
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// toJSON writes the objects of the RDB file at path as `rdb -c json` does (helper.ToJsons,
// whose JSON library this module does not take: encoding/json writes the same objects).
func toJSON(t *testing.T, path, jsonPath string) {
	t.Helper()
	in, err := os.Open(path)
	must(t, err)
	defer in.Close()
	var objs []json.RawMessage
	err = parser.NewDecoder(in).Parse(func(o parser.RedisObject) bool {
		b, err := json.Marshal(o)
		must(t, err)
		objs = append(objs, b)
		return true
	})
	must(t, err)
	b, err := json.Marshal(objs)
	must(t, err)
	must(t, os.WriteFile(jsonPath, b, 0o644))
}
