package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// scanBatch is the COUNT of each SCAN, and so about the keys of each pipeline of
// DUMP and expiry commands: the memory a scan holds is one batch's payloads.
const scanBatch = 1000

// scan reads the server key by key: SCAN, then DUMP and the expiry of each key
// pipelined, each payload decoded into sink.
func (s *Source) scan(ctx context.Context, sink record.Sink) error {
	first := max(s.addr.DB, 0)
	c, err := s.client(first)
	if err != nil {
		return err
	}
	defer c.Close()
	info, err := c.Info(ctx, "server", "keyspace").Result()
	if err != nil {
		return fmt.Errorf("connect to %s: %w", s.addr, err)
	}
	dbs, major := keyspace(info)
	if s.addr.DB >= 0 {
		dbs = slices.DeleteFunc(dbs, func(db int) bool { return db != s.addr.DB })
	}
	if err := s.functions(ctx, c, sink); err != nil {
		return err
	}
	pr, err := decoder.NewPayloadReader(s.opts.Decoder)
	if err != nil {
		return err
	}
	w := &scanner{s: s, pr: pr, sink: sink, absolute: major >= 7}
	defer func() { s.stats = pr.Stats(); s.stats.Bytes = 0 }()
	for _, db := range dbs {
		if err := w.db(ctx, db); err != nil {
			return err
		}
	}
	w.report()
	if w.gone > 0 {
		s.notice("%d keys of %s were deleted between SCAN and DUMP, and are not read", w.gone, s.addr)
	}
	return nil
}

// client returns a client of database db.
func (s *Source) client(db int) (*redis.Client, error) {
	o, err := s.addr.clientOptions(db, s.opts.TLS, s.opts.Timeout)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(o), nil
}

// keyspace returns the databases that INFO keyspace lists, in order, and the
// server's major version from INFO server.
func keyspace(info string) (dbs []int, major int) {
	for line := range strings.SplitSeq(info, "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "redis_version:"); ok {
			major, _ = strconv.Atoi(strings.SplitN(v, ".", 2)[0])
		}
		name, _, ok := strings.Cut(line, ":keys=")
		if n, ok2 := strings.CutPrefix(name, "db"); ok && ok2 {
			if db, err := strconv.Atoi(n); err == nil {
				dbs = append(dbs, db)
			}
		}
	}
	slices.Sort(dbs)
	return dbs, major
}

// functions writes the server's function libraries into sink, by name; a
// server older than 7.0 has none.
func (s *Source) functions(ctx context.Context, c *redis.Client, sink record.Sink) error {
	libs, err := c.FunctionList(ctx, redis.FunctionListQuery{WithCode: true}).Result()
	var re redis.Error
	switch {
	case errors.As(err, &re) && unknownCommand(err.Error()):
		return nil
	case err != nil:
		return fmt.Errorf("FUNCTION LIST at %s: %w", s.addr, err)
	}
	slices.SortFunc(libs, func(a, b redis.Library) int { return strings.Compare(a.Name, b.Name) })
	for _, l := range libs {
		if err := sink.WriteFunction([]byte(l.Code)); err != nil {
			return err
		}
	}
	return nil
}

// A scanner reads databases with SCAN and DUMP.
type scanner struct {
	s        *Source
	pr       *decoder.PayloadReader
	sink     record.Sink
	absolute bool // PEXPIRETIME (7.0+), else PTTL
	keys     uint64
	gone     uint64 // keys deleted between SCAN and DUMP
}

// db reads database db into the sink.
func (w *scanner) db(ctx context.Context, db int) error {
	c, err := w.s.client(db)
	if err != nil {
		return err
	}
	defer c.Close()
	opened := false
	// SCAN may return a key twice (when the server resizes its table midway).
	seen := map[string]struct{}{}
	var cursor uint64
	for {
		keys, next, err := c.Scan(ctx, cursor, "", scanBatch).Result()
		if err != nil {
			return fmt.Errorf("SCAN db %d at %s: %w", db, w.s.addr, err)
		}
		keys = slices.DeleteFunc(keys, func(k string) bool {
			_, dup := seen[k]
			seen[k] = struct{}{}
			return dup
		})
		if len(keys) > 0 && !opened {
			if err := w.sink.BeginDB(db, record.Counts{}); err != nil {
				return err
			}
			opened = true
		}
		if err := w.batch(ctx, c, db, keys); err != nil {
			return err
		}
		if cursor = next; cursor == 0 {
			return nil
		}
	}
}

// batch fetches and decodes the values of keys.
func (w *scanner) batch(ctx context.Context, c *redis.Client, db int, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	pipe := c.Pipeline()
	dumps := make([]*redis.StringCmd, len(keys))
	exps := make([]*redis.Cmd, len(keys))
	expCmd := "PTTL"
	if w.absolute {
		expCmd = "PEXPIRETIME"
	}
	for i, k := range keys {
		dumps[i] = pipe.Dump(ctx, k)
		exps[i] = pipe.Do(ctx, expCmd, k)
	}
	_, _ = pipe.Exec(ctx) // each command's error is read below
	now := time.Now().UnixMilli()
	for i, k := range keys {
		payload, err := dumps[i].Result()
		if err == redis.Nil {
			w.gone++
			continue
		}
		if err != nil {
			return fmt.Errorf("DUMP %q in db %d at %s: %w", k, db, w.s.addr, err)
		}
		exp, err := exps[i].Int64()
		if err != nil {
			return fmt.Errorf("%s %q in db %d at %s: %w", expCmd, k, db, w.s.addr, err)
		}
		switch {
		case exp == -2: // deleted after its DUMP
			w.gone++
			continue
		case exp == -1:
			exp = 0
		case !w.absolute:
			exp += now
		}
		if err := w.pr.WriteTo(ctx, []byte(k), exp, []byte(payload), w.sink); err != nil {
			var de *decoder.Error
			if errors.As(err, &de) {
				return fmt.Errorf("DUMP %q in db %d at %s: %w", k, db, w.s.addr, err)
			}
			return err
		}
		w.keys++
		if w.keys%scanBatch == 0 {
			w.report()
		}
	}
	return ctx.Err()
}

func (w *scanner) report() {
	if w.s.opts.Progress != nil {
		w.s.opts.Progress(record.Progress{Keys: w.keys})
	}
}
