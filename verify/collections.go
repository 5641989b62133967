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

// sampledMembers returns the members of r to read one by one: all of them when r is small
// enough to be read whole (then nil), else a sample.
func sampledMembers(r *record.Record) []uint64 {
	n := uint64(len(r.Members))
	if n <= maxFullMembers {
		return nil
	}
	return slices.Collect(Sample(n, memberSample, 0))
}

// lengthDiff compares the reply of HLEN, LLEN, SCARD or ZCARD with the record's length.
func lengthDiff(cmd *redis.IntCmd, want int, noun string) *diff {
	n, err := cmd.Result()
	switch {
	case err != nil:
		return &diff{noun, "error " + err.Error(), fmt.Sprint(want)}
	case n != int64(want):
		return &diff{noun, fmt.Sprint(n), fmt.Sprint(want)}
	}
	return nil
}

// replyDiff reports the error of a member's read: missing for redis.Nil.
func replyDiff(what string, err error, want string) *diff {
	if errors.Is(err, redis.Nil) {
		return &diff{what, "missing", want}
	}
	return &diff{what, "error " + err.Error(), want}
}

// hashCheck reads a hash: HLEN, then HGETALL or HGET.
type hashCheck struct{}

func (hashCheck) queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
	key := string(r.Key)
	length := p.HLen(ctx, key)
	field := func(m *record.Member, got string) *diff {
		if got != string(m.Value) {
			return &diff{"field " + quote(string(m.Name)), quote(got), quote(string(m.Value))}
		}
		return nil
	}
	if sample := sampledMembers(r); sample != nil {
		cmds := make([]*redis.StringCmd, len(sample))
		for k, j := range sample {
			cmds[k] = p.HGet(ctx, key, string(r.Members[j].Name))
		}
		return func() *diff {
			if d := lengthDiff(length, len(r.Members), "fields"); d != nil {
				return d
			}
			for k, j := range sample {
				m := &r.Members[j]
				v, err := cmds[k].Result()
				if err != nil {
					return replyDiff("field "+quote(string(m.Name)), err, quote(string(m.Value)))
				}
				if d := field(m, v); d != nil {
					return d
				}
			}
			return nil
		}
	}
	all := p.HGetAll(ctx, key)
	return func() *diff {
		if d := lengthDiff(length, len(r.Members), "fields"); d != nil {
			return d
		}
		got, err := all.Result()
		if err != nil {
			return &diff{"fields", "error " + err.Error(), ""}
		}
		for j := range r.Members {
			m := &r.Members[j]
			v, ok := got[string(m.Name)]
			if !ok {
				return &diff{"field " + quote(string(m.Name)), "missing", quote(string(m.Value))}
			}
			if d := field(m, v); d != nil {
				return d
			}
		}
		return nil
	}
}

// listCheck reads a list: LLEN, then LRANGE or LINDEX.
type listCheck struct{}

func (listCheck) queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
	key := string(r.Key)
	length := p.LLen(ctx, key)
	element := func(j uint64, got string) *diff {
		if want := string(r.Members[j].Name); got != want {
			return &diff{"element " + strconv.FormatUint(j, 10), quote(got), quote(want)}
		}
		return nil
	}
	sample := sampledMembers(r)
	if sample == nil {
		all := p.LRange(ctx, key, 0, -1)
		return func() *diff {
			if d := lengthDiff(length, len(r.Members), "elements"); d != nil {
				return d
			}
			got, err := all.Result()
			if err != nil {
				return &diff{"elements", "error " + err.Error(), ""}
			}
			for j := range min(len(got), len(r.Members)) {
				if d := element(uint64(j), got[j]); d != nil {
					return d
				}
			}
			return nil
		}
	}
	cmds := make([]*redis.StringCmd, len(sample))
	for k, j := range sample {
		cmds[k] = p.LIndex(ctx, key, int64(j))
	}
	return func() *diff {
		if d := lengthDiff(length, len(r.Members), "elements"); d != nil {
			return d
		}
		for k, j := range sample {
			v, err := cmds[k].Result()
			if err != nil {
				return replyDiff("element "+strconv.FormatUint(j, 10), err, quote(string(r.Members[j].Name)))
			}
			if d := element(j, v); d != nil {
				return d
			}
		}
		return nil
	}
}

// setCheck reads a set: SCARD, then SMEMBERS or SISMEMBER.
type setCheck struct{}

func (setCheck) queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
	key := string(r.Key)
	length := p.SCard(ctx, key)
	missing := func(m *record.Member) *diff { return &diff{"member " + quote(string(m.Name)), "missing", "present"} }
	sample := sampledMembers(r)
	if sample == nil {
		all := p.SMembers(ctx, key)
		return func() *diff {
			if d := lengthDiff(length, len(r.Members), "members"); d != nil {
				return d
			}
			got, err := all.Result()
			if err != nil {
				return &diff{"members", "error " + err.Error(), ""}
			}
			have := make(map[string]bool, len(got))
			for _, m := range got {
				have[m] = true
			}
			for j := range r.Members {
				if !have[string(r.Members[j].Name)] {
					return missing(&r.Members[j])
				}
			}
			return nil
		}
	}
	cmds := make([]*redis.BoolCmd, len(sample))
	for k, j := range sample {
		cmds[k] = p.SIsMember(ctx, key, string(r.Members[j].Name))
	}
	return func() *diff {
		if d := lengthDiff(length, len(r.Members), "members"); d != nil {
			return d
		}
		for k, j := range sample {
			is, err := cmds[k].Result()
			if err != nil {
				return &diff{"member " + quote(string(r.Members[j].Name)), "error " + err.Error(), "present"}
			}
			if !is {
				return missing(&r.Members[j])
			}
		}
		return nil
	}
}

// zsetCheck reads a sorted set: ZCARD, then ZRANGE WITHSCORES or ZSCORE.
type zsetCheck struct{}

func (zsetCheck) queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
	key := string(r.Key)
	length := p.ZCard(ctx, key)
	score := func(m *record.Member, got float64) *diff {
		if got != m.Score {
			return &diff{"score of " + quote(string(m.Name)), formatScore(got), formatScore(m.Score)}
		}
		return nil
	}
	sample := sampledMembers(r)
	if sample == nil {
		all := p.ZRangeWithScores(ctx, key, 0, -1)
		return func() *diff {
			if d := lengthDiff(length, len(r.Members), "members"); d != nil {
				return d
			}
			got, err := all.Result()
			if err != nil {
				return &diff{"members", "error " + err.Error(), ""}
			}
			scores := make(map[string]float64, len(got))
			for _, z := range got {
				scores[fmt.Sprint(z.Member)] = z.Score
			}
			for j := range r.Members {
				m := &r.Members[j]
				s, ok := scores[string(m.Name)]
				if !ok {
					return &diff{"member " + quote(string(m.Name)), "missing", "score " + formatScore(m.Score)}
				}
				if d := score(m, s); d != nil {
					return d
				}
			}
			return nil
		}
	}
	cmds := make([]*redis.FloatCmd, len(sample))
	for k, j := range sample {
		cmds[k] = p.ZScore(ctx, key, string(r.Members[j].Name))
	}
	return func() *diff {
		if d := lengthDiff(length, len(r.Members), "members"); d != nil {
			return d
		}
		for k, j := range sample {
			m := &r.Members[j]
			s, err := cmds[k].Result()
			if err != nil {
				return replyDiff("member "+quote(string(m.Name)), err, "score "+formatScore(m.Score))
			}
			if d := score(m, s); d != nil {
				return d
			}
		}
		return nil
	}
}

// formatScore renders a score exactly.
func formatScore(s float64) string { return strconv.FormatFloat(s, 'g', -1, 64) }
