package clusterverify

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// A part is a range of records one function recomputes: a dataset, or a spec family.
type part struct {
	count  uint64
	record func(i uint64) (record.Record, error)
}

// parts returns what recomputes the records of the set's manifests: the dataset, or the
// spec file's families; none for an import.
func parts(set *manifest.ClusterSet) ([]part, error) {
	m := set.Manifests[0]
	switch {
	case m.Dataset != nil:
		d := m.Dataset
		return []part{{d.Count, func(i uint64) (record.Record, error) { return d.Record(i), nil }}}, nil
	case m.Spec != nil:
		s, err := spec.Parse(m.Spec.File, []byte(m.Spec.YAML))
		if err == nil {
			err = s.SetParams(m.Spec.Params)
		}
		if err != nil {
			return nil, fmt.Errorf("the manifests' spec: %w", err)
		}
		var ps []part
		for _, f := range s.Families {
			ps = append(ps, part{f.Keys(), f.Record})
		}
		return ps, nil
	}
	return nil, nil
}

// datasetKeys returns the number of keys of the records the manifests describe, or -1 when
// they do not say (an import).
func datasetKeys(set *manifest.ClusterSet) int64 {
	ps, err := parts(set)
	if err != nil || ps == nil {
		return -1
	}
	var n uint64
	for _, p := range ps {
		n += p.count
	}
	return int64(n)
}

// spread returns n record numbers of count, evenly spread, the first and last included;
// all of them when n >= count.
func spread(count, n uint64) []uint64 {
	if n >= count {
		n = count
	}
	out := make([]uint64, 0, n)
	for k := range n {
		i := k
		if n > 1 && n < count {
			i = k * (count - 1) / (n - 1)
		}
		out = append(out, i)
	}
	return out
}

// checkSample reads about n records, spread over every part, through the cluster client,
// and compares their types, values and TTLs with the records recomputed.
func checkSample(ctx context.Context, cc *redis.ClusterClient, set *manifest.ClusterSet, n int, rep *Report, ms *mismatches) error {
	ps, err := parts(set)
	if err != nil || n == 0 {
		return err
	}
	var all uint64
	for _, p := range ps {
		all += p.count
	}
	var batch []record.Record
	flush := func() error {
		if err := checkRecords(ctx, cc, batch, ms); err != nil {
			return err
		}
		rep.Sampled += len(batch)
		batch = batch[:0]
		return nil
	}
	for _, p := range ps {
		share := (uint64(n)*p.count + all - 1) / max(all, 1)
		for _, i := range spread(p.count, share) {
			r, err := p.record(i)
			if err != nil {
				return fmt.Errorf("recompute record %d: %w", i, err)
			}
			if r.ExpireAtMS > 0 && r.ExpireAtMS <= time.Now().UnixMilli() {
				continue // expired: Redis dropped it at load, or will on access
			}
			if batch = append(batch, r); len(batch) == 100 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// ttlSlack is how far a key's PTTL may stray from the one its expiry implies at the time of
// the read.
const ttlSlack = time.Second

// checkRecords reads rs through cc in one pipeline, which go-redis splits by node, and adds
// what differs from rs to ms.
func checkRecords(ctx context.Context, cc *redis.ClusterClient, rs []record.Record, ms *mismatches) error {
	if len(rs) == 0 {
		return nil
	}
	p := cc.Pipeline()
	types := make([]*redis.StatusCmd, len(rs))
	ttls := make([]*redis.Cmd, len(rs))
	values := make([]redis.Cmder, len(rs))
	for k, r := range rs {
		key := string(r.Key)
		types[k] = p.Type(ctx, key)
		ttls[k] = p.Do(ctx, "PTTL", key)
		switch typeName(r.Type) {
		case "string":
			values[k] = p.Get(ctx, key)
		case "hash":
			values[k] = p.HGetAll(ctx, key)
		case "list":
			values[k] = p.LRange(ctx, key, 0, -1)
		case "set":
			values[k] = p.SMembers(ctx, key)
		case "zset":
			values[k] = p.ZRangeWithScores(ctx, key, 0, -1)
		}
	}
	before := time.Now().UnixMilli()
	if _, err := p.Exec(ctx); err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	after := time.Now().UnixMilli()
	for k, r := range rs {
		key := string(r.Key)
		typ, err := types[k].Result()
		if err != nil {
			return fmt.Errorf("TYPE %q: %w", key, err)
		}
		if want := typeName(r.Type); typ != want {
			got := typ
			if typ == "none" {
				got = "missing"
			}
			ms.add(Mismatch{Key: key, What: "type", Got: got, Want: want})
			continue
		}
		if got, want, ok := compare(r, values[k]); !ok {
			ms.add(Mismatch{Key: key, What: "value", Got: got, Want: want})
		}
		pttl, _ := ttls[k].Int64()
		switch {
		case r.ExpireAtMS == 0 && pttl != -1:
			ms.add(Mismatch{Key: key, What: "ttl", Got: fmt.Sprintf("%d ms", pttl), Want: "none"})
		case r.ExpireAtMS > 0 && (pttl < r.ExpireAtMS-after-ttlSlack.Milliseconds() || pttl > r.ExpireAtMS-before+ttlSlack.Milliseconds()):
			ms.add(Mismatch{Key: key, What: "ttl", Got: fmt.Sprintf("%d ms", pttl), Want: fmt.Sprintf("%d ms", r.ExpireAtMS-before)})
		}
	}
	return nil
}

// typeName returns the name TYPE gives a record type.
func typeName(t record.Type) string {
	if t.IsString() {
		return "string"
	}
	return string(t)
}

// compare compares what a read of r returned with r's value; it returns both, shortened,
// when they differ.
func compare(r record.Record, c redis.Cmder) (got, want string, ok bool) {
	if err := c.Err(); err != nil {
		return "error " + err.Error(), "", false
	}
	switch c := c.(type) {
	case *redis.StringCmd:
		return short(c.Val()), short(string(r.Value)), c.Val() == string(r.Value)
	case *redis.MapStringStringCmd:
		want := map[string]string{}
		for _, m := range r.Members {
			want[string(m.Name)] = string(m.Value)
		}
		return fmt.Sprintf("%d fields", len(c.Val())), fmt.Sprintf("%d fields", len(want)), maps.Equal(c.Val(), want)
	case *redis.StringSliceCmd:
		want := make([]string, len(r.Members))
		for k, m := range r.Members {
			want[k] = string(m.Name)
		}
		got := c.Val()
		if r.Type == record.Set {
			got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
		}
		return fmt.Sprintf("%d members", len(got)), fmt.Sprintf("%d members", len(want)), slices.Equal(got, want)
	case *redis.ZSliceCmd:
		want := map[string]float64{}
		for _, m := range r.Members {
			want[string(m.Name)] = m.Score
		}
		got := map[string]float64{}
		for _, z := range c.Val() {
			got[z.Member.(string)] = z.Score
		}
		return fmt.Sprintf("%d members", len(got)), fmt.Sprintf("%d members", len(want)), maps.Equal(got, want)
	}
	return "unread", "", false
}

// short quotes s, cut to 40 bytes.
func short(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:40]) + "..."
	}
	return strconv.Quote(s)
}
