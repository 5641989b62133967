package summary

import (
	"fmt"

	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// A Load is what rdbgen load reports when it is done.
type Load struct {
	FunctionCounts
	// NewerDropped counts what --drop-newer dropped (decoder.Stats.NewerDropped).
	NewerDropped map[string]uint64 `json:"newer_dropped,omitempty"`

	Addr          string                   `json:"addr"`
	DB            int                      `json:"db"`
	Method        string                   `json:"method"`
	Workers       int                      `json:"workers"`
	Batch         int                      `json:"batch"`
	Keys          uint64                   `json:"keys"`
	Expires       uint64                   `json:"expires"`
	Expired       uint64                   `json:"expired"`
	Nodes         map[string]record.Counts `json:"nodes,omitempty"`
	Seconds       float64                  `json:"seconds"`
	KeysPerSecond float64                  `json:"keys_per_second"`
	Manifest      string                   `json:"manifest,omitempty"`
	Streams       resp.StreamCounts        `json:"streams,omitzero"`
	Restore       resp.RestoreCounts       `json:"restore,omitzero"`
	// Auto counts how --method auto sent the keys.
	Auto *loader.AutoCounts `json:"auto,omitempty"`
	// Unsupported counts the keys --skip-unsupported left out.
	Unsupported uint64 `json:"unsupported,omitempty"`
}

// workersAndBatch describes a method's connections and batch, as in
// "50 workers" or "1 worker, batch 1000".
func workersAndBatch(m string, workers, batch int) string {
	s := fmt.Sprintf("%d worker", workers)
	if workers != 1 {
		s += "s"
	}
	switch m {
	case string(loader.Pipeline):
		s += fmt.Sprintf(", batch %d", batch)
	case string(loader.Auto):
		s += fmt.Sprintf(", MSET of %d keys", batch)
	}
	return s
}

// FromLoad returns the summary of the load res into the server at addr, with the manifest
// written to manifestPath ("" for none); the caller adds the database and the libraries
// left out.
func FromLoad(res *loader.Result, addr, manifestPath string) Load {
	sum := Load{
		Addr: addr, Method: string(res.Method), Workers: res.Workers, Batch: res.Batch,
		Keys: res.Keys, Expires: res.Expires, Expired: res.Expired,
		Seconds: res.Duration.Seconds(), KeysPerSecond: human.PerSecond(res.Keys, res.Duration),
		Manifest: manifestPath, Streams: res.Streams, Restore: res.Restore,
	}
	sum.Functions, sum.ModuleAuxDropped, sum.Unsupported = res.Functions, res.ModuleAuxDropped, res.Unsupported
	if res.Method == loader.Auto {
		sum.Auto = &res.Auto
	}
	for a, n := range res.Nodes {
		if sum.Nodes == nil {
			sum.Nodes = map[string]record.Counts{}
		}
		sum.Nodes[a] = record.Counts{Keys: n.Keys, Expires: n.Expires}
	}
	return sum
}

// Text returns the summary for people; where names what the keys went into.
func (sum Load) Text(where string) string {
	expired := ""
	if sum.Expired > 0 {
		expired = fmt.Sprintf(" and %d whose expiry had passed (the server keeps none of them)", sum.Expired)
	}
	unsupported := ""
	if sum.Unsupported > 0 {
		unsupported = fmt.Sprintf("; left out %d keys the server cannot hold (--skip-unsupported)", sum.Unsupported)
	}
	return fmt.Sprintf("loaded %d keys (%d with TTL)%s into %s by %s (%s): %.2fs, %.0f keys/s%s\n",
		sum.Keys, sum.Expires, expired, where, sum.Method, workersAndBatch(sum.Method, sum.Workers, sum.Batch), sum.Seconds, sum.KeysPerSecond, unsupported+sum.Suffix("and")+NewerNotes(sum.NewerDropped)) +
		StreamsNote(sum.Streams) + autoNote(sum.Auto)
}

// autoNote tells how --method auto sent the keys, and what the servers refused, if anything.
func autoNote(a *loader.AutoCounts) string {
	if a == nil {
		return ""
	}
	s := fmt.Sprintf("sent %d strings in %d MSET commands, %d as SET, %d keys as RESTORE, %d as commands\n",
		a.MSet, a.MSetCommands, a.Set, a.Restore, a.Commands)
	for _, r := range a.Refused {
		s += r + "\n"
	}
	return s
}
