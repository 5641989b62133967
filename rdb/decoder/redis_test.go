package decoder_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// fillEveryType fills a server through its own commands with every type Redis 7.0 has,
// small and large, with TTLs, in several databases, and returns the records it holds, read
// back with go-redis.
func fillEveryType(ctx context.Context, c *redis.Client, want *[]string) error {
	do := func(db int, args ...any) error {
		if err := c.Do(ctx, "SELECT", db).Err(); err != nil {
			return err
		}
		return c.Do(ctx, args...).Err()
	}
	var cmds [][]any
	add := func(args ...any) { cmds = append(cmds, args) }
	add("SET", "s:small", "hello")
	add("SET", "s:int", "12345")
	add("SET", "s:neg", "-7")
	add("SET", "s:int64", "12345678901234")
	add("SET", "s:long", strings.Repeat("compressible ", 100))
	add("SET", "s:ttl", "v", "PXAT", "4102444800000")
	add("SET", "s:empty", "")
	add("HSET", "h:small", "a", "1", "b", "two", "c", "-3")
	add("PEXPIREAT", "h:small", "4102444801000")
	big := []any{"HSET", "h:big"}
	for i := range 1000 {
		big = append(big, fmt.Sprint("field", i), strconv.Itoa(i*7))
	}
	add(big...)
	add("RPUSH", "l:small", "a", "1", "b", "-100000", "c")
	bigl := []any{"RPUSH", "l:big"}
	for i := range 3000 {
		bigl = append(bigl, fmt.Sprint("element-", i%17, "-", i))
	}
	add(bigl...)
	add("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "1000")
	add("RPUSH", "l:huge", strings.Repeat("x", 20000), "small", strings.Repeat("y", 9000))
	add("SADD", "set:ints", "1", "2", "3", "-4", "70000", "5000000000")
	bigi := []any{"SADD", "set:bigints"}
	for i := range 1000 {
		bigi = append(bigi, strconv.Itoa(i*3))
	}
	add(bigi...)
	add("SADD", "set:strs", "a", "b", "c")
	bigs := []any{"SADD", "set:bigstrs"}
	for i := range 700 {
		bigs = append(bigs, fmt.Sprint("m", i))
	}
	add(bigs...)
	add("ZADD", "z:small", "1", "a", "2.5", "b", "-3", "c", "inf", "d")
	bigz := []any{"ZADD", "z:big"}
	for i := range 500 {
		bigz = append(bigz, strconv.FormatFloat(float64(i)/3, 'g', -1, 64), fmt.Sprint("member", i))
	}
	add(bigz...)
	for i := 1; i <= 250; i++ {
		add("XADD", "x:stream", fmt.Sprintf("%d-%d", i, i%3), "a", strconv.Itoa(i), "b", "v")
	}
	add("XADD", "x:stream", "300-0", "other", "fields", "here", "x")
	add("XDEL", "x:stream", "2-2", "3-0", "101-2")
	add("XGROUP", "CREATE", "x:stream", "g1", "0")
	add("XGROUP", "CREATE", "x:stream", "g2", "$")
	add("XREADGROUP", "GROUP", "g1", "alice", "COUNT", "3", "STREAMS", "x:stream", ">")
	add("XREADGROUP", "GROUP", "g1", "bob", "COUNT", "2", "STREAMS", "x:stream", ">")
	add("XACK", "x:stream", "g1", "4-1")
	add("XGROUP", "CREATECONSUMER", "x:stream", "g2", "carol")
	add("XADD", "x:empty", "1-1", "f", "v")
	add("XDEL", "x:empty", "1-1")
	for _, a := range cmds {
		if err := do(0, a...); err != nil {
			return fmt.Errorf("%v: %w", a[:2], err)
		}
	}
	for db := 1; db <= 3; db += 2 {
		if err := do(db, "SET", fmt.Sprint("db", db), "x", "EX", "100000"); err != nil {
			return err
		}
		if err := do(db, "SADD", "shared-name", "only", fmt.Sprint(db)); err != nil {
			return err
		}
	}
	for _, db := range []int{0, 1, 3} {
		recs, err := serverRecords(ctx, c, db)
		if err != nil {
			return err
		}
		*want = append(*want, recs...)
	}
	return nil
}

// serverRecords reads every key of db from the server into canonical records.
func serverRecords(ctx context.Context, c *redis.Client, db int) ([]string, error) {
	if err := c.Do(ctx, "SELECT", db).Err(); err != nil {
		return nil, err
	}
	keys, err := c.Keys(ctx, "*").Result()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, k := range keys {
		r := record.Record{DB: db, Key: []byte(k)}
		typ, err := c.Type(ctx, k).Result()
		if err != nil {
			return nil, err
		}
		r.Type = record.Type(typ)
		if ms, err := c.Do(ctx, "PEXPIRETIME", k).Int64(); err != nil {
			return nil, err
		} else if ms > 0 {
			r.ExpireAtMS = ms
		}
		switch r.Type {
		case record.String:
			v, err := c.Get(ctx, k).Result()
			if err != nil {
				return nil, err
			}
			r.Value = []byte(v)
		case record.Hash:
			m, err := c.HGetAll(ctx, k).Result()
			if err != nil {
				return nil, err
			}
			for f, v := range m {
				r.Members = append(r.Members, record.Member{Name: []byte(f), Value: []byte(v)})
			}
		case record.List:
			l, err := c.LRange(ctx, k, 0, -1).Result()
			if err != nil {
				return nil, err
			}
			for _, e := range l {
				r.Members = append(r.Members, record.Member{Name: []byte(e)})
			}
		case record.Set:
			l, err := c.SMembers(ctx, k).Result()
			if err != nil {
				return nil, err
			}
			for _, e := range l {
				r.Members = append(r.Members, record.Member{Name: []byte(e)})
			}
		case record.ZSet:
			l, err := c.ZRangeWithScores(ctx, k, 0, -1).Result()
			if err != nil {
				return nil, err
			}
			for _, z := range l {
				r.Members = append(r.Members, record.Member{Name: []byte(z.Member.(string)), Score: z.Score})
			}
		case record.Stream:
			if err := readStream(ctx, c, k, &r); err != nil {
				return nil, err
			}
		}
		out = append(out, canon(&r))
	}
	return out, nil
}

func parseID(s string) record.StreamID {
	ms, seq, _ := strings.Cut(s, "-")
	a, _ := strconv.ParseUint(ms, 10, 64)
	b, _ := strconv.ParseUint(seq, 10, 64)
	return record.StreamID{Ms: a, Seq: b}
}

// readStream reads a stream's entries, groups, pending entries and consumers.
func readStream(ctx context.Context, c *redis.Client, k string, r *record.Record) error {
	xs, err := c.XRange(ctx, k, "-", "+").Result()
	if err != nil {
		return err
	}
	for _, x := range xs {
		// go-redis returns the fields as a map: take their order from XRANGE's raw reply.
		raw, err := c.Do(ctx, "XRANGE", k, x.ID, x.ID).Slice()
		if err != nil {
			return err
		}
		var fields [][]byte
		for _, f := range raw[0].([]any)[1].([]any) {
			fields = append(fields, []byte(f.(string)))
		}
		r.Members = append(r.Members, record.Member{ID: parseID(x.ID), Fields: fields})
	}
	full, err := c.XInfoStreamFull(ctx, k, 0).Result()
	if err != nil {
		return err
	}
	for _, g := range full.Groups {
		sg := record.StreamGroup{Name: []byte(g.Name), LastID: parseID(g.LastDeliveredID)}
		for _, p := range g.Pending {
			sg.Pending = append(sg.Pending, record.StreamPending{ID: parseID(p.ID), DeliveryCount: uint64(p.DeliveryCount)})
		}
		for _, cs := range g.Consumers {
			sc := record.StreamConsumer{Name: []byte(cs.Name)}
			for _, p := range cs.Pending {
				sc.Pending = append(sc.Pending, parseID(p.ID))
			}
			sg.Consumers = append(sg.Consumers, sc)
		}
		r.Stream.Groups = append(r.Stream.Groups, sg)
	}
	return nil
}

func TestReadRedisDump(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"defaults", nil},
		{"no compression, small nodes", []string{"--rdbcompression", "no", "--list-max-listpack-size", "4"}},
		{"large listpacks", []string{"--hash-max-listpack-entries", "2000", "--zset-max-listpack-entries", "1000", "--set-max-intset-entries", "2000", "--list-max-listpack-size", "-5"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			path := redistest.WriteDumpWith(t, tc.args, func(ctx context.Context, c *redis.Client) error {
				return fillEveryType(ctx, c, &want)
			})
			recs, rd := readAll(t, path)
			diff(t, canonAll(recs), sortStrings(want))
			if rd.Version() != 10 || rd.Aux()["redis-ver"] == "" {
				t.Errorf("version %d, aux %v", rd.Version(), rd.Aux())
			}
			// Lists past the held bytes are read twice from the file, or refused when the
			// source cannot be read at an offset.
			var again recorder
			if _, err := (decoder.File{Path: path, Options: decoder.Options{MaxHeldBytes: 4096}}).Read(context.Background(), &again); err != nil {
				t.Fatal(err)
			}
			diff(t, canonAll(again.Records), sortStrings(want))
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			plain, err := decoder.NewReader(struct{ io.Reader }{f}, decoder.Options{MaxHeldBytes: 4096})
			if err != nil {
				t.Fatal(err)
			}
			if err := plain.WriteTo(context.Background(), &recorder{}); !errors.Is(err, decoder.ErrTooLarge) || !strings.Contains(err.Error(), `key "l:`) {
				t.Fatalf("got %v, want ErrTooLarge naming a list", err)
			}
			st := rd.Stats()
			t.Logf("encodings: %v", st.Types)
			if st.Checksum == 0 {
				t.Error("no checksum")
			}
		})
	}
}

type redisClient = redis.Client
