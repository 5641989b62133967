package spec

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/bits"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// SampleRecords is how many records of each family Estimate encodes; a family of at most
// this many is encoded whole, and its size is exact.
const SampleRecords = 2000

// An Estimate is the expected size of the file a spec makes.
type Estimate struct {
	Keys     uint64           `json:"keys"`
	Expires  uint64           `json:"expires"`
	Bytes    int64            `json:"bytes"`
	Families []FamilyEstimate `json:"families"`
}

// A FamilyEstimate is one family's share of an Estimate.
type FamilyEstimate struct {
	Name    string `json:"name"`
	Key     string `json:"key"`
	Type    string `json:"type"`
	DB      int    `json:"db"`
	Keys    uint64 `json:"keys"`
	Expires uint64 `json:"expires"`
	Bytes   int64  `json:"bytes"`
	Exact   bool   `json:"exact"` // every record was encoded
}

// SampleMembers bounds the members Estimate encodes for one family: a record with more
// members than its share is encoded with that share only, and its size scaled up.
const SampleMembers = 1 << 20

// Estimate encodes up to SampleRecords records of each family, spread evenly over it, with
// the encoder options opts, and scales their size up to the family's count. Since the
// records go through the real encoder, the estimate reflects the target's encodings and
// compression; it is exact for families of at most SampleRecords keys whose collections hold
// at most their share of SampleMembers members. Its time is bounded by those numbers, and it
// stops with ctx's error when ctx is cancelled. A file too large for an int64 of bytes is an
// error.
func (s *Spec) Estimate(ctx context.Context, opts encoder.Options) (Estimate, error) {
	est := Estimate{}
	empty, err := encodedSize(opts, nil)
	if err != nil {
		return est, err
	}
	est.Bytes = empty
	dbs, by := s.DBs()
	for _, db := range dbs {
		var keys, expires uint64
		for _, f := range by[db] {
			if err := ctx.Err(); err != nil {
				return est, err
			}
			fe, err := estimateFamily(ctx, f, opts)
			if err != nil {
				return est, err
			}
			keys += fe.Keys
			expires += fe.Expires
			if est.Bytes > math.MaxInt64-fe.Bytes {
				return est, errTooLarge(f)
			}
			est.Bytes += fe.Bytes
			est.Families = append(est.Families, fe)
		}
		if keys > 0 {
			est.Bytes += 2 + lengthSize(uint64(db)) + lengthSize(keys) + lengthSize(expires) // SELECTDB, RESIZEDB
		}
		est.Keys += keys
		est.Expires += expires
	}
	return est, nil
}

// errTooLarge is the error of a spec whose file would be larger than an int64 counts.
func errTooLarge(f *Family) error {
	return fmt.Errorf("%w: %s: with family %s the file would be larger than %d bytes", ErrInvalid, f.path, f.Name, int64(math.MaxInt64))
}

// estimateFamily encodes a sample of f's records.
func estimateFamily(ctx context.Context, f *Family, opts encoder.Options) (FamilyEstimate, error) {
	fe := FamilyEstimate{Name: f.Name, Key: f.key.text, Type: string(f.Type), DB: f.DB, Keys: f.count, Expires: f.Expires()}
	if f.count == 0 {
		fe.Exact = true
		return fe, nil
	}
	n := min(f.count, SampleRecords)
	fe.Exact = n == f.count
	maxMembers := max(SampleMembers/n, 1024) // a sample record's members
	e := newEmitter(nil)
	e.done = ctx
	base, err := encodedSize(opts, func(record.Sink) error { return nil })
	if err != nil {
		return fe, err
	}
	var scaled float64 // the scaled sizes of records with more than maxMembers members
	size, err := encodedSize(opts, func(sink record.Sink) error {
		for k := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			// Record k·count/n, the k-th of n evenly spaced ones.
			hi, lo := bits.Mul64(k, f.count)
			i, _ := bits.Div64(hi, lo, n)
			if f.members != nil {
				if m := f.memberCount(i); m > maxMembers {
					one, err := encodedSize(opts, func(sink record.Sink) error {
						e.sink, e.maxMembers = sink, maxMembers
						defer func() { e.maxMembers = 0 }()
						return e.write(f, i)
					})
					if err != nil {
						return err
					}
					scaled += float64(one-base) * float64(m) / float64(maxMembers)
					fe.Exact = false
					continue
				}
			}
			e.sink = sink
			if err := e.write(f, i); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fe, err
	}
	sample := float64(size-base) + scaled
	bytes := sample
	if !fe.Exact {
		bytes = sample / float64(n) * float64(f.count)
	}
	if bytes >= math.MaxInt64 {
		return fe, errTooLarge(f)
	}
	fe.Bytes = int64(bytes)
	return fe, nil
}

// encodedSize returns the size of a file of db 0 holding what write writes (nil: no db).
func encodedSize(opts encoder.Options, write func(record.Sink) error) (int64, error) {
	w, err := rdbsink.NewWriter(io.Discard, opts)
	if err != nil {
		return 0, err
	}
	if write != nil {
		if err := w.BeginDB(0, record.Counts{}); err != nil {
			return 0, err
		}
		if err := write(w); err != nil {
			return 0, err
		}
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return w.Stats().Bytes, nil
}

// lengthSize is the size of an RDB length encoding of n.
func lengthSize(n uint64) int64 {
	switch {
	case n < 1<<6:
		return 1
	case n < 1<<14:
		return 2
	case n <= 1<<32-1:
		return 5
	}
	return 9
}
