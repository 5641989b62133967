package summary

import (
	"fmt"

	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/output"
)

// A DryRun is what --dry-run reports: the keys, the file and the memory estimated.
type DryRun struct {
	Keys       uint64 `json:"keys"`
	Expires    uint64 `json:"expires"`
	Bytes      int64  `json:"bytes"`       // the file's size
	BytesExact bool   `json:"bytes_exact"` // false: estimated from a sample of each family
	UsedMemory int64  `json:"used_memory"` // above an empty server's
	// MemoryExact is false when the estimate comes from a scaled-down spec.
	MemoryExact bool           `json:"used_memory_exact"`
	Target      string         `json:"target"`
	RDBVersion  int            `json:"rdb_version"`
	Memory      *memory.Result `json:"memory"`
}

// Text returns the summary for people.
func (sum DryRun) Text() string {
	approx := func(exact bool) string {
		if exact {
			return ""
		}
		return "~"
	}
	return fmt.Sprintf("dry run, nothing written: %d keys (%d with TTL); file %s%s (RDB %d, %s); used_memory %s%s on %s once loaded\n",
		sum.Keys, sum.Expires, approx(sum.BytesExact), human.Bytes(sum.Bytes), sum.RDBVersion, sum.Target,
		approx(sum.MemoryExact), human.Bytes(sum.UsedMemory), sum.Target)
}

// DryRunOf returns the summary of est, the estimate of a file of RDB version rdbVersion.
func DryRunOf(est output.Estimate, rdbVersion int) DryRun {
	return DryRun{Keys: est.Keys, Expires: est.Expires, Bytes: est.Bytes, BytesExact: est.BytesExact,
		UsedMemory: est.Memory.Bytes, MemoryExact: est.MemoryExact, Target: est.Memory.Target, RDBVersion: rdbVersion, Memory: &est.Memory}
}
