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
// pipelined, each payload decoded into sink. Keys the server answers MOVED or ASK for (their
// slot moved away) are left out and the scan reads on: it returns a *MovedError at the end,
// which a cluster's reading counts with the slots that moved (ClusterSource.AllowMovingSlots).
func (s *Source) scan(ctx context.Context, sink record.Sink) error {
	first := max(s.addr.DB, 0)
	c, err := s.client(first)
	if err != nil {
		return err
	}
	defer c.Close()
	info, err := s.info(ctx, c)
	if err != nil {
		return err
	}
	dbs, major := keyspace(info)
	access, err := s.keyAccess(ctx, c)
	if err != nil {
		return err
	}
	s.patterns = access.patterns
	switch {
	case access.patterns != nil:
		s.notice("the user may read only the keys matching %s at %s: the scan reads those alone", strings.Join(access.patterns, " "), s.addr)
	case access.unknown != "":
		s.notice("%s: the keys it may read are unknown, so the scan lists every key, and one it may not read stops it", access.unknown)
	}
	if s.addr.DB >= 0 {
		dbs = slices.DeleteFunc(dbs, func(db int) bool { return db != s.addr.DB })
	}
	if !s.opts.DropFunctions {
		if err := s.functions(ctx, c, sink); err != nil {
			return err
		}
	}
	pr, err := decoder.NewPayloadReader(s.opts.Decoder)
	if err != nil {
		return err
	}
	w := &scanner{s: s, pr: pr, sink: sink, absolute: major >= 7, access: access}
	defer func() { s.stats = pr.Stats(); s.stats.Bytes = 0 }()
	for _, db := range dbs {
		if err := w.db(ctx, db); err != nil {
			return err
		}
	}
	w.report()
	if w.touched != "" {
		s.touched = true
		s.notice("%s: the scan reset every key's OBJECT IDLETIME (LRU) or counted an access to it (LFU)", w.touched)
	}
	if w.outside > 0 {
		s.notice("%d keys of %s outside the user's key patterns were not read", w.outside, s.addr)
	}
	s.outside = w.outside
	if w.gone > 0 {
		s.notice("%d keys of %s were deleted between SCAN and DUMP, and are not read", w.gone, s.addr)
	}
	return movedError(s.addr, w.movedKeys, w.moved)
}

// client returns a client of database db.
func (s *Source) client(db int) (*redis.Client, error) {
	o, err := s.addr.clientOptions(db, s.opts.TLS, s.opts.Timeout)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(o), nil
}

// info returns the server and keyspace sections of INFO, asked one at a time: several
// sections in one INFO exist from Redis 7.0 only.
func (s *Source) info(ctx context.Context, c *redis.Client) (string, error) {
	var text strings.Builder
	for _, section := range []string{"server", "keyspace"} {
		part, err := c.Info(ctx, section).Result()
		if err != nil {
			return "", fmt.Errorf("INFO %s at %s: %w", section, s.addr, err)
		}
		text.WriteString(part)
		text.WriteString("\n")
	}
	return text.String(), nil
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
	case errors.As(err, &re) && strings.HasPrefix(err.Error(), "NOPERM"):
		return fmt.Errorf("FUNCTION LIST at %s: %w (leave the libraries out with --drop-functions)", s.addr, err)
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
	access   keyAccess
	outside  uint64 // keys SCAN listed that the user's key patterns do not cover
	touched  string // why the scan's DUMPs count as accesses (no CLIENT NO-TOUCH), or ""
	keys     uint64
	gone     uint64 // keys deleted between SCAN and DUMP
	// the keys the server answered MOVED or ASK for, and their slots: read on past them,
	// a MovedError at the end
	movedKeys uint64
	moved     map[int]bool
}

// db reads database db into the sink.
func (w *scanner) db(ctx context.Context, db int) error {
	o, err := w.s.addr.clientOptions(db, w.s.opts.TLS, w.s.opts.Timeout)
	if err != nil {
		return err
	}
	o.OnConnect = func(ctx context.Context, cn *redis.Conn) error { return w.noTouch(ctx, cn) }
	c := redis.NewClient(o)
	defer c.Close()
	opened := false
	// SCAN may return a key twice (when the server resizes its table midway).
	seen := map[string]struct{}{}
	var cursor uint64
	match, check := w.access.scanMatch(w.s.opts.Match)
	for {
		keys, next, err := c.Scan(ctx, cursor, match, scanBatch).Result()
		if err != nil {
			return fmt.Errorf("SCAN db %d at %s: %w", db, w.s.addr, err)
		}
		keys = slices.DeleteFunc(keys, func(k string) bool {
			_, dup := seen[k]
			seen[k] = struct{}{}
			if !dup && check && !w.access.readable(k) {
				w.outside++
				return true
			}
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

// noTouch asks the server not to count the scan's DUMPs on the new connection c as accesses
// (CLIENT NO-TOUCH, Redis 7.2+), so that the keys' LRU idle time and LFU counter stay as
// they were; a server without it, or a user not allowed it, is noted in touched.
func (w *scanner) noTouch(ctx context.Context, c *redis.Conn) error {
	err := c.Do(ctx, "CLIENT", "NO-TOUCH", "on").Err()
	var re redis.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re) && unknownCommand(err.Error()):
		w.touched = fmt.Sprintf("%s has no CLIENT NO-TOUCH (Redis 7.2+)", w.s.addr)
		return nil
	case errors.As(err, &re) && strings.HasPrefix(err.Error(), "NOPERM"):
		w.touched = fmt.Sprintf("the user may not run CLIENT NO-TOUCH at %s", w.s.addr)
		return nil
	}
	return fmt.Errorf("CLIENT NO-TOUCH at %s: %w", w.s.addr, err)
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
		if slot, ok := movedSlot(err); ok { // its slot moved away: see scan
			if w.moved == nil {
				w.moved = map[int]bool{}
			}
			w.moved[slot] = true
			w.movedKeys++
			continue
		}
		if err != nil && strings.HasPrefix(err.Error(), "NOPERM") {
			why := ""
			if w.access.unknown != "" {
				why = fmt.Sprintf(" (%s, so its key patterns are unknown)", w.access.unknown)
			}
			return fmt.Errorf("DUMP %q in db %d at %s: %w%s: %w", k, db, w.s.addr, ErrKeyRefused, why, err)
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
