package summary

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/spec"
)

// A SpecCheck is what rdbgen spec check reports: the spec file's estimate.
type SpecCheck struct {
	File       string `json:"file"`
	Target     string `json:"target"`
	RDBVersion int    `json:"rdb_version"`
	spec.Estimate
	// UsedMemory is the used_memory the records take on the target once loaded (above an
	// empty server's); exact false when estimated from the spec scaled down.
	UsedMemory      int64          `json:"used_memory"`
	UsedMemoryExact bool           `json:"used_memory_exact"`
	Memory          *memory.Result `json:"memory"`
}

// CheckSpec checks opts and estimates, for the file the spec s makes under them, its size and
// the used_memory its records take on opts' target.
func CheckSpec(ctx context.Context, s *spec.Spec, opts encoder.Options) (SpecCheck, error) {
	caps, err := opts.Check()
	if err != nil {
		return SpecCheck{}, err
	}
	est, err := s.Estimate(ctx, opts)
	if err != nil {
		return SpecCheck{}, err
	}
	mem, exact, err := s.EstimateMemory(ctx, memory.Options{Target: caps.Target.Name, Thresholds: opts.Thresholds})
	if err != nil {
		return SpecCheck{}, err
	}
	return SpecCheck{File: s.File, Target: caps.Target.Name, RDBVersion: caps.RDBVersion, Estimate: est,
		UsedMemory: mem.Bytes, UsedMemoryExact: exact, Memory: &mem}, nil
}

// WriteText writes the check of the spec s for people: a line per family, then the totals.
func (res SpecCheck) WriteText(out io.Writer, s *spec.Spec) error {
	est := res.Estimate
	fmt.Fprintf(out, "%s: ok\n", s.File)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  family\tkey\ttype\tdb\tkeys\tttl\test. size")
	for _, fe := range est.Families {
		f := s.Family(fe.Name)
		ttl := "-"
		if f.TTL > 0 {
			ttl = f.TTL.String()
			if f.TTLJitter > 0 {
				ttl += "±" + f.TTLJitter.String()
			}
		}
		size := human.Bytes(fe.Bytes)
		if !fe.Exact {
			size = "~" + size
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%d\t%s\t%s\n", fe.Name, fe.Key, fe.Type, fe.DB, fe.Keys, ttl, size)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	approx := "~"
	if res.UsedMemoryExact {
		approx = ""
	}
	_, err := fmt.Fprintf(out, "%d keys (%d with TTL) in %d families; estimated file size %s (%d bytes; RDB %d, %s); used_memory %s%s once loaded\n",
		est.Keys, est.Expires, len(est.Families), human.Bytes(est.Bytes), est.Bytes, res.RDBVersion, res.Target, approx, human.Bytes(res.UsedMemory))
	return err
}
