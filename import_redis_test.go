package rdbgen_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/record"
)

// TestImportsInRedis imports JSON Lines of every type over two dbs, and CSV strings and
// hashes, loads each file into a real redis-server, and reads every key back.
func TestImportsInRedis(t *testing.T) {
	redistest.RedisServer(t)
	checkRDB := redistest.RedisCheckRDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	exp := time.Now().Add(time.Hour).UTC().Truncate(time.Millisecond)
	var jsonl strings.Builder
	for i := range 300 {
		db := i / 150 * 3 // db 0, then db 3
		switch i % 5 {
		case 0:
			fmt.Fprintf(&jsonl, `{"db":%d,"key":"s%d","type":"string","expiration":%q,"value":"v%d"}`+"\n", db, i, exp.Format(time.RFC3339Nano), i)
		case 1:
			fmt.Fprintf(&jsonl, `{"db":%d,"key":"l%d","type":"list","values":["a","b","a","%d"]}`+"\n", db, i, i)
		case 2:
			fmt.Fprintf(&jsonl, `{"db":%d,"key":"t%d","type":"set","members":["x","%d","y"]}`+"\n", db, i, i)
		case 3:
			fmt.Fprintf(&jsonl, `{"db":%d,"key":"h%d","type":"hash","hash":{"f":"%d","g":"w"}}`+"\n", db, i, i)
		case 4:
			fmt.Fprintf(&jsonl, `{"db":%d,"key":"z%d","type":"zset","entries":[{"member":"m","score":%d.5},{"member":"n","score":-1}]}`+"\n", db, i, i)
		}
	}
	var csvText strings.Builder
	csvText.WriteString("id,attr,val,expires\n")
	for i := range 200 {
		fmt.Fprintf(&csvText, "user:%d,name,u%d,1h\nuser:%d,email,u%d@example.com,\n", i, i, i, i)
	}
	cases := []struct {
		name string
		open func() (importer.Reader, error)
		dbs  map[int]int
	}{
		{"jsonl", func() (importer.Reader, error) { return importer.NewJSONReader(strings.NewReader(jsonl.String())), nil }, map[int]int{0: 150, 3: 150}},
		{"csv", func() (importer.Reader, error) {
			return importer.NewCSVReader(strings.NewReader(csvText.String()), importer.CSVOptions{Key: "id", Field: "attr", Value: "val", TTL: "expires", DB: 2, BaseTime: exp}), nil
		}, map[int]int{2: 200}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dump.rdb")
			f, err := os.Create(path)
			must(t, err)
			src := &importer.Source{Open: tc.open}
			_, err = rdbgen.Write(ctx, f, src, rdbgen.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
			must(t, err)
			stats := src.Stats
			must(t, f.Close())
			if out, err := exec.Command(checkRDB, path).CombinedOutput(); err != nil {
				t.Fatalf("redis-check-rdb: %v\n%s", err, out)
			}
			inst := servertest.Start(t, path)
			addr := inst.Client().Options().Addr
			for db, n := range tc.dbs {
				c := redis.NewClient(&redis.Options{Addr: addr, DB: db})
				defer c.Close()
				if got, err := c.DBSize(ctx).Result(); err != nil || got != int64(n) || stats.DBs[db].Keys != uint64(n) {
					t.Fatalf("db %d: DBSIZE %d (%v), imported %d, want %d", db, got, err, stats.DBs[db].Keys, n)
				}
			}
			// Every record, read again, is on the server.
			r, _ := tc.open()
			clients := map[int]*redis.Client{}
			for {
				rec, err := r.Read()
				if err != nil {
					break
				}
				c := clients[rec.DB]
				if c == nil {
					c = redis.NewClient(&redis.Options{Addr: addr, DB: rec.DB})
					defer c.Close()
					clients[rec.DB] = c
				}
				if rec.Type == record.String {
					if v, err := c.Get(ctx, string(rec.Key)).Result(); err != nil || v != string(rec.Value) {
						t.Fatalf("GET %s = %q, %v", rec.Key, v, err)
					}
					if at, err := c.PExpireTime(ctx, string(rec.Key)).Result(); err != nil || at.Milliseconds() != rec.ExpireAtMS {
						t.Fatalf("PEXPIRETIME %s = %v, want %d", rec.Key, at, rec.ExpireAtMS)
					}
					continue
				}
				spotCheck(t, ctx, c, *rec)
			}
		})
	}
}
