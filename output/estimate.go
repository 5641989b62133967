package output

import (
	"context"
	"io"

	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// An Estimate is what writing a source would make, found without writing it anywhere.
type Estimate struct {
	Keys, Expires uint64
	// Bytes is the file's size; BytesExact is false when it comes from a sample of each
	// family of a spec.
	Bytes      int64
	BytesExact bool
	// Memory is the used_memory the records take on a server; MemoryExact is false when it
	// comes from a scaled-down spec.
	Memory      memory.Result
	MemoryExact bool
}

// EstimateWrite estimates the file opts would write of src and the memory of mopts it
// takes. A spec is estimated from samples of its families (spec.Spec.Estimate); any other
// source is read once into both a write to nowhere and the memory estimate.
func EstimateWrite(ctx context.Context, src record.Source, opts Options, mopts memory.Options) (Estimate, error) {
	var est Estimate
	if s, ok := src.(*spec.Spec); ok {
		se, err := s.Estimate(ctx, opts.Encoder)
		if err != nil {
			return est, err
		}
		est.Keys, est.Expires, est.Bytes, est.BytesExact = se.Keys, se.Expires, se.Bytes, true
		for _, f := range se.Families {
			est.BytesExact = est.BytesExact && f.Exact
		}
		est.Memory, est.MemoryExact, err = s.EstimateMemory(ctx, mopts)
		return est, err
	}
	e, err := memory.New(mopts)
	if err != nil {
		return est, err
	}
	both := record.Through(src, func(file record.Sink) (record.Sink, error) { return record.Tee(file, e), nil })
	res, err := Write(ctx, io.Discard, both, opts)
	if err != nil {
		return est, err
	}
	est.Keys, est.Expires, est.Bytes, est.BytesExact = res.Stats.Keys, res.Stats.Expires, res.Stats.Bytes, true
	est.Memory, err = e.Result()
	est.MemoryExact = true
	return est, err
}
