package redistest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// FunctionLibraries are the code of two function libraries, "mylib" and "otherlib", for tests of
// dumps that hold functions (Redis 7.0+). Both are long enough for Redis to LZF-compress
// them in a dump.
var FunctionLibraries = []string{
	"#!lua name=mylib\nredis.register_function('echo1', function(keys, args) return args[1] end)\n",
	"#!lua   NAME=otherlib\n-- a second library\nredis.register_function{function_name='knock', callback=function(keys, args) return 'who is there' end, flags={'no-writes'}}\n",
}

// WriteFunctionDump returns the path of a new RDB file that a real redis-server 7.0+ wrote
// with SAVE after FUNCTION LOAD of FunctionLibraries and a few keys of every type but streams, in
// dbs 0 and 3 unless oneDB.
func WriteFunctionDump(t testing.TB, oneDB bool) string {
	t.Helper()
	return WriteDumpWith(t, []string{"--databases", "16"}, func(ctx context.Context, c *redis.Client) error {
		for _, code := range FunctionLibraries {
			if err := c.FunctionLoad(ctx, code).Err(); err != nil {
				return err
			}
		}
		cmds := [][]any{
			{"SET", "s", "v"}, {"SET", "ttl", "x", "EX", "3600"},
			{"RPUSH", "l", "a", "b", "a"}, {"SADD", "set", "1", "2", "x"},
			{"ZADD", "z", "1.5", "a", "-2", "b"}, {"HSET", "h", "f", "v", "g", "w"},
		}
		if !oneDB {
			cmds = append(cmds, []any{"SELECT", "3"}, []any{"SET", "db3", "three"})
		}
		for _, cmd := range cmds {
			if err := c.Do(ctx, cmd...).Err(); err != nil {
				return err
			}
		}
		return nil
	})
}

// FunctionList returns the libraries a server holds, with their code, sorted by name: what
// FUNCTION LIST WITHCODE tells.
func FunctionList(t testing.TB, c *redis.Client) []redis.Library {
	t.Helper()
	libs, err := c.FunctionList(context.Background(), redis.FunctionListQuery{WithCode: true}).Result()
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(libs, func(a, b redis.Library) int { return strings.Compare(a.Name, b.Name) })
	return libs
}
