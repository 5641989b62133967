package verify

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// A valueCheck reads the value of keys of one type from a server and compares it with the
// record. Each type has one, in valueChecks; TYPE, PTTL and existence are checked for all
// types alike, by checkRecords.
type valueCheck interface {
	// queue queues on p the commands that read r's value. The function it returns
	// compares their replies with r once p has run: it returns what was found and what was
	// wanted, or ok.
	queue(ctx context.Context, p redis.Pipeliner, r *record) func() (got, want string, ok bool)
}

// valueChecks holds the check of each type, by the name TYPE gives it.
var valueChecks = map[string]valueCheck{
	"string": stringCheck{},
}

// stringCheck reads a string with GET.
type stringCheck struct{}

func (stringCheck) queue(ctx context.Context, p redis.Pipeliner, r *record) func() (string, string, bool) {
	cmd := p.Get(ctx, r.key)
	return func() (string, string, bool) {
		v, err := cmd.Result()
		if err != nil {
			return "error " + err.Error(), quote(string(r.value)), false
		}
		return quote(v), quote(string(r.value)), v == string(r.value)
	}
}

// ttlSlack is how far a key's PTTL may stray from the one its expiry implies at the time of
// the read: the server's clock and ours are the same machine's, so a little.
const ttlSlack = time.Second

// recordCheck is the commands queued for one record.
type recordCheck struct {
	r       *record
	typ     *redis.StatusCmd
	pttl    *redis.Cmd
	compare func() (got, want string, ok bool)
}

// checkRecords reads the records rs from the server, each from the client of its database,
// and adds what differs to ms.
func checkRecords(ctx context.Context, clients *dbClients, rs []record, ms *mismatches) error {
	pipes := map[int]redis.Pipeliner{}
	checks := make([]recordCheck, len(rs))
	for i := range rs {
		r := &rs[i]
		p := pipes[r.db]
		if p == nil {
			p = clients.get(r.db).Pipeline()
			pipes[r.db] = p
		}
		c := recordCheck{r: r, typ: p.Type(ctx, r.key), pttl: p.Do(ctx, "PTTL", r.key)}
		if vc := valueChecks[r.typ]; vc != nil {
			c.compare = vc.queue(ctx, p, r)
		}
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
			ms.add(Mismatch{Stage: StageServer, DB: r.db, Key: r.key, What: what, Got: got, Want: want})
		}
		typ, err := c.typ.Result()
		switch {
		case err != nil:
			return fmt.Errorf("read key %q: %w", r.key, err)
		case typ == "none":
			fail("", "missing", "")
			continue
		case typ != r.typ:
			fail("type", typ, r.typ)
			continue
		}
		if c.compare == nil {
			return fmt.Errorf("no check for keys of type %s", r.typ)
		}
		if got, want, ok := c.compare(); !ok {
			fail("value", got, want)
		}
		pttl, err := c.pttl.Int64()
		if err != nil {
			return fmt.Errorf("read the TTL of key %q: %w", r.key, err)
		}
		checkTTL(r, pttl, before, after, fail)
	}
	return nil
}

// checkTTL compares a key's PTTL, read between before and after, with its expiry.
func checkTTL(r *record, pttl int64, before, after time.Time, fail func(what, got, want string)) {
	if r.expireAtMS == 0 {
		if pttl != -1 {
			fail("ttl", fmt.Sprintf("%d ms", pttl), "none")
		}
		return
	}
	slack := ttlSlack.Milliseconds()
	lo := r.expireAtMS - after.UnixMilli() - slack
	hi := r.expireAtMS - before.UnixMilli() + slack
	switch {
	case pttl == -1:
		fail("ttl", "none", fmt.Sprintf("%d ms (expires at %s)", (lo+hi)/2, formatMS(r.expireAtMS)))
	case pttl < lo || pttl > hi:
		fail("ttl", fmt.Sprintf("%d ms", pttl), fmt.Sprintf("%d to %d ms (expires at %s)", lo, hi, formatMS(r.expireAtMS)))
	}
}
