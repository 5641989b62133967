package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/record"
)

// A collection of up to maxFullMembers members is read whole (HGETALL, LRANGE, SMEMBERS,
// ZRANGE) and compared member by member; a larger one is checked by its length and
// memberSample members picked by Sample, first and last included, read one by one.
const (
	maxFullMembers = 1000
	memberSample   = 100
)

// A collectionCheck is the valueCheck of a collection type: the reads of its length, of
// its whole content, and of one member.
type collectionCheck struct {
	noun   string // what the length counts: "fields", "elements", "members"
	length func(ctx context.Context, p redis.Pipeliner, key string) *redis.IntCmd
	// all queues the read of the whole collection; its function returns the first member
	// that differs, once the length is known to be right.
	all func(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff
	// one queues the read of member j, and its function compares it.
	one func(ctx context.Context, p redis.Pipeliner, r *record.Record, j uint64) func() *diff
}

func (c collectionCheck) queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
	length := c.length(ctx, p, string(r.Key))
	var compares []func() *diff
	if n := uint64(len(r.Members)); n <= maxFullMembers {
		compares = append(compares, c.all(ctx, p, r))
	} else {
		for j := range Sample(n, memberSample, 0) {
			compares = append(compares, c.one(ctx, p, r, j))
		}
	}
	return func() *diff {
		n, err := length.Result()
		switch {
		case err != nil:
			return &diff{c.noun, "error " + err.Error(), fmt.Sprint(len(r.Members))}
		case n != int64(len(r.Members)):
			return &diff{c.noun, fmt.Sprint(n), fmt.Sprint(len(r.Members))}
		}
		for _, compare := range compares {
			if d := compare(); d != nil {
				return d
			}
		}
		return nil
	}
}

// replyDiff reports the failed read of what: missing for redis.Nil.
func replyDiff(what string, err error, want string) *diff {
	if errors.Is(err, redis.Nil) {
		return &diff{what, "missing", want}
	}
	return &diff{what, "error " + err.Error(), want}
}

// hashCheck reads a hash: HLEN, then HGETALL or HGET.
var hashCheck = collectionCheck{
	noun:   "fields",
	length: func(ctx context.Context, p redis.Pipeliner, key string) *redis.IntCmd { return p.HLen(ctx, key) },
	all: func(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
		cmd := p.HGetAll(ctx, string(r.Key))
		ttls := queueFieldTTLs(ctx, p, r, r.Members)
		return func() *diff {
			got, err := cmd.Result()
			if err != nil {
				return replyDiff("fields", err, "")
			}
			for j := range r.Members {
				m := &r.Members[j]
				v, ok := got[string(m.Name)]
				if d := fieldDiff(m, v, ok); d != nil {
					return d
				}
			}
			return ttls()
		}
	},
	one: func(ctx context.Context, p redis.Pipeliner, r *record.Record, j uint64) func() *diff {
		m := &r.Members[j]
		cmd := p.HGet(ctx, string(r.Key), string(m.Name))
		ttls := queueFieldTTLs(ctx, p, r, r.Members[j:j+1])
		return func() *diff {
			v, err := cmd.Result()
			if err != nil && !errors.Is(err, redis.Nil) {
				return replyDiff("field "+quote(string(m.Name)), err, quote(string(m.Value)))
			}
			if d := fieldDiff(m, v, err == nil); d != nil {
				return d
			}
			return ttls()
		}
	},
}

// queueFieldTTLs queues, for a hash some of whose fields expire (Redis 7.4+), the read of
// the expiries of fields with HPEXPIRETIME; its function compares them. For other hashes it
// queues nothing, so that servers without HPEXPIRETIME are not asked.
func queueFieldTTLs(ctx context.Context, p redis.Pipeliner, r *record.Record, fields []record.Member) func() *diff {
	if !slices.ContainsFunc(r.Members, func(m record.Member) bool { return m.ExpireAtMS != 0 }) {
		return func() *diff { return nil }
	}
	args := []any{"HPEXPIRETIME", string(r.Key), "FIELDS", len(fields)}
	for _, m := range fields {
		args = append(args, string(m.Name))
	}
	cmd := p.Do(ctx, args...)
	return func() *diff {
		got, err := cmd.Int64Slice()
		if err != nil || len(got) != len(fields) {
			return replyDiff("field expiries", fmt.Errorf("%v (%d replies)", err, len(got)), "")
		}
		for k, m := range fields {
			want := m.ExpireAtMS
			if want == 0 {
				want = -1 // no expiry
			}
			if got[k] != want {
				return &diff{"expiry of field " + quote(string(m.Name)), strconv.FormatInt(got[k], 10), strconv.FormatInt(want, 10)}
			}
		}
		return nil
	}
}

// fieldDiff compares a hash field's value, found or not, with the member's.
func fieldDiff(m *record.Member, got string, found bool) *diff {
	switch {
	case !found:
		return &diff{"field " + quote(string(m.Name)), "missing", quote(string(m.Value))}
	case got != string(m.Value):
		return &diff{"field " + quote(string(m.Name)), quote(got), quote(string(m.Value))}
	}
	return nil
}

// listCheck reads a list: LLEN, then LRANGE or LINDEX.
var listCheck = collectionCheck{
	noun:   "elements",
	length: func(ctx context.Context, p redis.Pipeliner, key string) *redis.IntCmd { return p.LLen(ctx, key) },
	all: func(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
		cmd := p.LRange(ctx, string(r.Key), 0, -1)
		return func() *diff {
			got, err := cmd.Result()
			if err != nil {
				return replyDiff("elements", err, "")
			}
			for j := range min(len(got), len(r.Members)) {
				if d := elementDiff(r, uint64(j), got[j]); d != nil {
					return d
				}
			}
			return nil
		}
	},
	one: func(ctx context.Context, p redis.Pipeliner, r *record.Record, j uint64) func() *diff {
		cmd := p.LIndex(ctx, string(r.Key), int64(j))
		return func() *diff {
			v, err := cmd.Result()
			if err != nil {
				return replyDiff("element "+strconv.FormatUint(j, 10), err, quote(string(r.Members[j].Name)))
			}
			return elementDiff(r, j, v)
		}
	},
}

// elementDiff compares element j of a list with the record's.
func elementDiff(r *record.Record, j uint64, got string) *diff {
	if want := string(r.Members[j].Name); got != want {
		return &diff{"element " + strconv.FormatUint(j, 10), quote(got), quote(want)}
	}
	return nil
}

// setCheck reads a set: SCARD, then SMEMBERS or SISMEMBER.
var setCheck = collectionCheck{
	noun:   "members",
	length: func(ctx context.Context, p redis.Pipeliner, key string) *redis.IntCmd { return p.SCard(ctx, key) },
	all: func(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
		cmd := p.SMembers(ctx, string(r.Key))
		return func() *diff {
			got, err := cmd.Result()
			if err != nil {
				return replyDiff("members", err, "")
			}
			have := make(map[string]bool, len(got))
			for _, m := range got {
				have[m] = true
			}
			for j := range r.Members {
				if !have[string(r.Members[j].Name)] {
					return memberMissing(&r.Members[j])
				}
			}
			return nil
		}
	},
	one: func(ctx context.Context, p redis.Pipeliner, r *record.Record, j uint64) func() *diff {
		m := &r.Members[j]
		cmd := p.SIsMember(ctx, string(r.Key), string(m.Name))
		return func() *diff {
			is, err := cmd.Result()
			switch {
			case err != nil:
				return replyDiff("member "+quote(string(m.Name)), err, "present")
			case !is:
				return memberMissing(m)
			}
			return nil
		}
	},
}

func memberMissing(m *record.Member) *diff {
	return &diff{"member " + quote(string(m.Name)), "missing", "present"}
}

// zsetCheck reads a sorted set: ZCARD, then ZRANGE WITHSCORES or ZSCORE.
var zsetCheck = collectionCheck{
	noun:   "members",
	length: func(ctx context.Context, p redis.Pipeliner, key string) *redis.IntCmd { return p.ZCard(ctx, key) },
	all: func(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
		cmd := p.ZRangeWithScores(ctx, string(r.Key), 0, -1)
		return func() *diff {
			got, err := cmd.Result()
			if err != nil {
				return replyDiff("members", err, "")
			}
			scores := make(map[string]float64, len(got))
			for _, z := range got {
				scores[fmt.Sprint(z.Member)] = z.Score
			}
			for j := range r.Members {
				m := &r.Members[j]
				s, ok := scores[string(m.Name)]
				if d := scoreDiff(m, s, ok); d != nil {
					return d
				}
			}
			return nil
		}
	},
	one: func(ctx context.Context, p redis.Pipeliner, r *record.Record, j uint64) func() *diff {
		m := &r.Members[j]
		cmd := p.ZScore(ctx, string(r.Key), string(m.Name))
		return func() *diff {
			s, err := cmd.Result()
			if err != nil && !errors.Is(err, redis.Nil) {
				return replyDiff("member "+quote(string(m.Name)), err, "score "+formatScore(m.Score))
			}
			return scoreDiff(m, s, err == nil)
		}
	},
}

// scoreDiff compares a sorted-set member's score, found or not, with the record's.
func scoreDiff(m *record.Member, got float64, found bool) *diff {
	switch {
	case !found:
		return &diff{"member " + quote(string(m.Name)), "missing", "score " + formatScore(m.Score)}
	case got != m.Score:
		return &diff{"score of " + quote(string(m.Name)), formatScore(got), formatScore(m.Score)}
	}
	return nil
}

// formatScore renders a score exactly.
func formatScore(s float64) string { return strconv.FormatFloat(s, 'g', -1, 64) }
