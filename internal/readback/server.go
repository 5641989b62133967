package readback

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/record"
)

// SpotCheck compares one key on the server r with the record want, as verify does: its
// members (a list and a zset in the server's order, a hash and a set in any) and its expiry
// (PEXPIRETIME).
func SpotCheck(t testing.TB, ctx context.Context, r *redis.Client, want record.Record) {
	t.Helper()
	key := string(want.Key)
	var got, exp []string
	switch want.Type {
	case record.Hash:
		h, err := r.HGetAll(ctx, key).Result()
		check(t, err)
		for f, v := range h {
			got = append(got, f+"="+v)
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name)+"="+string(m.Value))
		}
	case record.List:
		l, err := r.LRange(ctx, key, 0, -1).Result()
		check(t, err)
		got = l
		for _, m := range want.Members {
			exp = append(exp, string(m.Name))
		}
	case record.Set:
		s, err := r.SMembers(ctx, key).Result()
		check(t, err)
		got = s
		for _, m := range want.Members {
			exp = append(exp, string(m.Name))
		}
	case record.ZSet:
		z, err := r.ZRangeWithScores(ctx, key, 0, -1).Result()
		check(t, err)
		for _, e := range z {
			got = append(got, e.Member.(string)+"="+strconv.FormatFloat(e.Score, 'g', -1, 64))
		}
		ms := slices.Clone(want.Members)
		slices.SortStableFunc(ms, func(a, b record.Member) int { // ZRANGE's order
			if c := cmp.Compare(a.Score, b.Score); c != 0 {
				return c
			}
			return bytes.Compare(a.Name, b.Name)
		})
		for _, m := range ms {
			exp = append(exp, string(m.Name)+"="+strconv.FormatFloat(m.Score, 'g', -1, 64))
		}
	}
	if want.Type == record.Hash || want.Type == record.Set {
		slices.Sort(got)
		slices.Sort(exp)
	}
	if !slices.Equal(got, exp) {
		t.Fatalf("key %q: %d members differ from the %d of the dataset", key, len(got), len(exp))
	}
	if ttl, err := r.PExpireTime(ctx, key).Result(); err != nil || ttl.Milliseconds() != want.ExpireAtMS {
		t.Fatalf("key %q: PEXPIRETIME %v (%v), want %d", key, ttl, err, want.ExpireAtMS)
	}
}

// check fails t with err, if not nil.
func check(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
