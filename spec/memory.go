package spec

import (
	"context"

	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
)

// MemorySampleKeys bounds the keys EstimateMemory walks: a larger spec is estimated from its
// records at a count scale that makes about this many keys, scaled back up.
const MemorySampleKeys = 1 << 20

// EstimateMemory estimates the used_memory that s's records take on opts' target once
// loaded (see package memory). A spec of at most MemorySampleKeys keys is walked whole; a
// larger one at a count scale that makes about that many, its estimate scaled back up to
// the real counts (Result.Scale), so the time is bounded. exact reports the first case. It
// stops with ctx's error when ctx is cancelled.
func (s *Spec) EstimateMemory(ctx context.Context, opts memory.Options) (r memory.Result, exact bool, err error) {
	total := s.Keys()
	if total <= MemorySampleKeys {
		r, err = memory.Estimate(ctx, s, opts)
		return r, true, err
	}
	counts := map[int]record.Counts{}
	dbs, by := s.DBs()
	for _, db := range dbs {
		var c record.Counts
		for _, f := range by[db] {
			c.Keys += f.Keys()
			c.Expires += f.Expires()
		}
		counts[db] = c
	}
	orig := s.Params
	scaled := orig
	if scaled.CountScale == 0 {
		scaled.CountScale = 1
	}
	scaled.CountScale *= float64(MemorySampleKeys) / float64(total)
	if err := s.SetParamsContext(ctx, scaled); err != nil {
		return r, false, err
	}
	sample := s.Keys()
	r, err = memory.Estimate(ctx, s, opts)
	if perr := s.SetParamsContext(ctx, orig); err == nil {
		err = perr
	}
	if err != nil {
		return r, false, err
	}
	return r.Scale(float64(total)/float64(sample), counts), false, nil
}
