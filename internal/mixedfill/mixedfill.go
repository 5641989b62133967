// Package mixedfill is the mixed fill of the tests that compare rdbgen with what a real
// redis-server wrote: every type and encoding, big and small collections, streams with
// consumer groups, expiries, several databases; as records, and sent to a live server
// through ordinary commands (for redistest.WriteDumpWith). Apart from redistest, which
// encoder's own tests import, since it imports record.
package mixedfill

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/record"
)

// Records builds the records of a mixed fill: every type, small and big collections in
// every encoding, expiries, three databases; and streams (records whose Members are the
// entries, with consumer groups).
func Records() []record.Record {
	rng := rand.New(rand.NewPCG(13, 1))
	text := func(n int) []byte {
		const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	expiry := time.Now().Add(time.Hour).UnixMilli()
	var recs []record.Record
	add := func(db int, typ record.Type, key string, members []record.Member) *record.Record {
		recs = append(recs, record.Record{DB: db, Key: []byte(key), Type: typ, Members: members})
		r := &recs[len(recs)-1]
		if len(recs)%7 == 0 {
			r.ExpireAtMS = expiry
		}
		return r
	}
	members := func(n, size int, ints bool) []record.Member {
		ms := make([]record.Member, n)
		for i := range ms {
			if ints {
				ms[i].Name = strconv.AppendInt(nil, int64(i*3-n), 10)
			} else {
				ms[i].Name = fmt.Appendf(nil, "m%d:%s", i, text(size))
			}
			ms[i].Value = text(size)
			ms[i].Score = float64(i) * 1.5
		}
		return ms
	}
	// db 0: strings of every encoding, hashes, lists.
	for i := range 3000 {
		var v []byte
		switch i % 6 {
		case 0:
			v = strconv.AppendInt(nil, int64(i), 10) // shared integer
		case 1:
			v = strconv.AppendInt(nil, rng.Int64(), 10)
		case 2:
			v = text(10)
		case 3:
			v = text(44)
		case 4:
			v = text(100)
		default:
			v = text(3000)
		}
		add(0, record.String, fmt.Sprintf("string:%d", i), nil).Value = v
	}
	for i := range 300 {
		add(0, record.Hash, fmt.Sprintf("hash:small:%d", i), members(5, 8, false))
	}
	for i := range 3 {
		add(0, record.Hash, fmt.Sprintf("hash:big:%d", i), members(1000, 10, false))
		add(0, record.Hash, fmt.Sprintf("hash:long:%d", i), members(20, 100, false))
	}
	for i := range 300 {
		add(0, record.List, fmt.Sprintf("list:small:%d", i), members(5, 6, i%2 == 0))
	}
	for i := range 3 {
		add(0, record.List, fmt.Sprintf("list:big:%d", i), members(20000, rng.IntN(60), false))
	}
	// db 1: sets and sorted sets.
	for i := range 300 {
		add(1, record.Set, fmt.Sprintf("set:ints:%d", i), members(10, 0, true))
		add(1, record.Set, fmt.Sprintf("set:small:%d", i), members(10, 8, false))
		add(1, record.ZSet, fmt.Sprintf("zset:small:%d", i), members(10, 8, false))
	}
	for i := range 3 {
		add(1, record.Set, fmt.Sprintf("set:big:%d", i), members(5000, 12, false))
		add(1, record.Set, fmt.Sprintf("set:bigints:%d", i), members(1000, 0, true))
		add(1, record.ZSet, fmt.Sprintf("zset:big:%d", i), members(2000, 12, false))
		add(1, record.ZSet, fmt.Sprintf("zset:long:%d", i), members(20, 80, false))
	}
	// db 3: streams, one with a consumer group and pending entries, and a few strings.
	for i := range 3 {
		r := add(3, record.Stream, fmt.Sprintf("stream:%d", i), nil)
		for j := range 500 {
			id := record.StreamID{Ms: 1700000000000 + uint64(j), Seq: uint64(j % 3)}
			fields := [][]byte{[]byte("name"), text(8), []byte("n"), strconv.AppendInt(nil, int64(j), 10)}
			if j%50 == 49 {
				fields = append(fields, []byte("extra"), text(20))
			}
			r.Members = append(r.Members, record.Member{ID: id, Fields: fields})
		}
		if i == 0 {
			g := record.StreamGroup{Name: []byte("workers"), Consumers: []record.StreamConsumer{{Name: []byte("alice")}}}
			for _, e := range r.Members[:20] {
				g.Pending = append(g.Pending, record.StreamPending{ID: e.ID, DeliveryCount: 1})
				g.Consumers[0].Pending = append(g.Consumers[0].Pending, e.ID)
			}
			r.Stream.Groups = []record.StreamGroup{g}
		}
	}
	for i := range 100 {
		add(3, record.String, fmt.Sprintf("db3:%d", i), nil).Value = text(20)
	}
	return recs
}

// BigStream is a stream of 20,000 entries of varied fields with a consumer group that has
// 2,000 pending entries among three consumers.
func BigStream() []record.Record {
	r := record.Record{Key: []byte("events"), Type: record.Stream}
	for j := range 20000 {
		id := record.StreamID{Ms: 1700000000000 + uint64(j/4)*7, Seq: uint64(j % 4)}
		fields := [][]byte{[]byte("user"), fmt.Appendf(nil, "user-%d", j%977), []byte("action"), []byte("click")}
		if j%3 == 0 {
			fields = append(fields, []byte("page"), fmt.Appendf(nil, "/products/%d/reviews", j))
		}
		r.Members = append(r.Members, record.Member{ID: id, Fields: fields})
	}
	g := record.StreamGroup{Name: []byte("analytics")}
	for c := range 3 {
		consumer := record.StreamConsumer{Name: fmt.Appendf(nil, "worker-%d", c)}
		for _, e := range r.Members[c*700 : c*700+700] {
			g.Pending = append(g.Pending, record.StreamPending{ID: e.ID, DeliveryCount: 1})
			consumer.Pending = append(consumer.Pending, e.ID)
		}
		g.Consumers = append(g.Consumers, consumer)
	}
	r.Stream.Groups = []record.StreamGroup{g}
	return []record.Record{r}
}

// Send writes recs into a live server with ordinary commands (SET, HSET, RPUSH, SADD, ZADD,
// XADD, XGROUP CREATE and XREADGROUP for the pending entries, PEXPIREAT), as the fill of
// redistest.WriteDumpWith.
func Send(ctx context.Context, c *redis.Client, recs []record.Record) error {
	conn := c.Conn()
	defer conn.Close()
	db := -1
	for i := range recs {
		r := &recs[i]
		if r.DB != db {
			if err := conn.Select(ctx, r.DB).Err(); err != nil {
				return err
			}
			db = r.DB
		}
		_, err := conn.Pipelined(ctx, func(p redis.Pipeliner) error {
			key := string(r.Key)
			var args []any // a collection's members; a stream's entries are written below
			for _, m := range r.Members {
				switch r.Type {
				case record.Stream:
					continue
				case record.Hash:
					args = append(args, m.Name, m.Value)
				case record.ZSet:
					args = append(args, m.Score, m.Name)
				default:
					args = append(args, m.Name)
				}
			}
			switch r.Type {
			case record.String:
				p.Set(ctx, key, r.Value, 0)
			case record.Hash:
				p.Do(ctx, append([]any{"HSET", key}, args...)...)
			case record.List:
				p.Do(ctx, append([]any{"RPUSH", key}, args...)...)
			case record.Set:
				p.Do(ctx, append([]any{"SADD", key}, args...)...)
			case record.ZSet:
				p.Do(ctx, append([]any{"ZADD", key}, args...)...)
			case record.Stream:
				for _, e := range r.Members {
					cmd := []any{"XADD", key, e.ID.String()}
					for _, f := range e.Fields {
						cmd = append(cmd, f)
					}
					p.Do(ctx, cmd...)
				}
				for _, g := range r.Stream.Groups {
					p.Do(ctx, "XGROUP", "CREATE", key, g.Name, "0")
					for _, c := range g.Consumers {
						p.Do(ctx, "XREADGROUP", "GROUP", g.Name, c.Name, "COUNT", len(c.Pending), "STREAMS", key, ">")
					}
				}
			}
			if r.ExpireAtMS > 0 {
				p.PExpireAt(ctx, key, time.UnixMilli(r.ExpireAtMS))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("key %q: %w", r.Key, err)
		}
	}
	return nil
}

// A Case is a named set of records a test sends to a server and compares.
type Case struct {
	Name string
	Recs []record.Record
}

// Cases returns the fills the tests compare: the whole mixed fill, its streams alone, and
// the big stream.
func Cases() []Case {
	all := Records()
	var streams []record.Record
	for _, r := range all {
		if r.Type == record.Stream {
			streams = append(streams, r)
		}
	}
	return []Case{{"mixed", all}, {"streams", streams}, {"big-stream", BigStream()}}
}
