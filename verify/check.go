package verify

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/record"
)

// A valueCheck reads the values of one type of key from a server and compares them with
// their records. Each type has one, in valueChecks (see collections.go for the collection
// types); TYPE, PTTL and existence are checked for all types alike, by checkRecords.
type valueCheck interface {
	// queue queues on p the commands that read r's value. The function it returns
	// compares their replies with r once p has run: nil when they match.
	queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff
}

// A diff is what differs in a value: what was compared, what was found and what wanted.
type diff struct{ what, got, want string }

// valueChecks holds the check of each type.
var valueChecks = map[record.Type]valueCheck{
	record.String: stringCheck{},
	record.Hash:   hashCheck,
	record.List:   listCheck,
	record.Set:    setCheck,
	record.ZSet:   zsetCheck,
	record.Stream: streamCheck{},
	record.Module: moduleCheck{},
}

// stringCheck reads a string with GET.
type stringCheck struct{}

func (stringCheck) queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
	cmd := p.Get(ctx, string(r.Key))
	return func() *diff {
		v, err := cmd.Result()
		switch {
		case err != nil:
			return &diff{"value", "error " + err.Error(), quote(string(r.Value))}
		case v != string(r.Value):
			return &diff{"value", quote(v), quote(string(r.Value))}
		}
		return nil
	}
}

// ttlSlack is how far a key's PTTL may stray from the one its expiry implies at the time of
// the read: the server's clock and ours are the same machine's, so a little.
const ttlSlack = time.Second

// recordCheck is the commands queued for one record.
type recordCheck struct {
	r       *record.Record
	typ     *redis.StatusCmd
	pttl    *redis.Cmd
	compare func() *diff
}

// checkRecords reads the records rs through rd, in one pipeline per database, and adds
// what differs to ms.
func checkRecords(ctx context.Context, rd reader, rs []record.Record, ms *mismatches) error {
	pipes := map[int]redis.Pipeliner{}
	checks := make([]recordCheck, len(rs))
	for i := range rs {
		r := &rs[i]
		if r.Type == "" {
			r.Type = record.String
		}
		p := pipes[r.DB]
		if p == nil {
			p = rd.pipeline(r.DB)
			pipes[r.DB] = p
		}
		key := string(r.Key)
		c := recordCheck{r: r, typ: p.Type(ctx, key), pttl: p.Do(ctx, "PTTL", key)}
		vc := valueChecks[r.Type]
		if vc == nil {
			return fmt.Errorf("no check for keys of type %s", r.Type)
		}
		c.compare = vc.queue(ctx, p, r)
		checks[i] = c
	}
	before := time.Now()
	for _, p := range pipes {
		// Exec returns the first failed command's error, redis.Nil for a missing key:
		// each command's own error is looked at below.
		if _, err := p.Exec(ctx); err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	after := time.Now()

	for _, c := range checks {
		r := c.r
		fail := func(what, got, want string) {
			ms.add(Mismatch{Stage: StageServer, DB: r.DB, Key: string(r.Key), What: what, Got: got, Want: want})
		}
		typ, err := c.typ.Result()
		switch {
		case err != nil:
			return fmt.Errorf("read key %q: %w", r.Key, err)
		case typ == "none":
			fail("", "missing", "")
			continue
		case typ != typeName(r):
			fail("type", typ, typeName(r))
			continue
		}
		if d := c.compare(); d != nil {
			fail(d.what, d.got, d.want)
		}
		pttl, err := c.pttl.Int64()
		if err != nil {
			return fmt.Errorf("read the TTL of key %q: %w", r.Key, err)
		}
		checkTTL(r.ExpireAtMS, pttl, before, after, fail)
	}
	return nil
}

// typeName is the type TYPE answers for r: its type, or, for a module value, its module
// type's name.
func typeName(r *record.Record) string {
	if r.Type == record.Module {
		return record.ModuleName(r.ModuleID)
	}
	return string(r.Type)
}

// checkTTL compares a key's PTTL, read between before and after, with its expiry.
func checkTTL(expireAtMS, pttl int64, before, after time.Time, fail func(what, got, want string)) {
	if expireAtMS == 0 {
		if pttl != -1 {
			fail("ttl", fmt.Sprintf("%d ms", pttl), "none")
		}
		return
	}
	slack := ttlSlack.Milliseconds()
	lo := expireAtMS - after.UnixMilli() - slack
	hi := expireAtMS - before.UnixMilli() + slack
	switch {
	case pttl == -1:
		fail("ttl", "none", fmt.Sprintf("%d ms (expires at %s)", (lo+hi)/2, formatMS(expireAtMS)))
	case pttl < lo || pttl > hi:
		fail("ttl", fmt.Sprintf("%d ms", pttl), fmt.Sprintf("%d to %d ms (expires at %s)", lo, hi, formatMS(expireAtMS)))
	}
}
