// Package summary holds what rdbgen's commands report when they are done, one type per
// kind of run, each written as JSON (--json) or for people (Text).
package summary

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/resp"
)

// A Write is what the commands that write records (generate, import, convert)
// report when they are done, whatever they wrote: an RDB file, a RESP stream or the files of
// a split. The fields that do not apply to what was written are left out of its JSON.
type Write struct {
	Output   string  `json:"output"`
	Format   string  `json:"format,omitempty"`   // "resp" for commands
	Manifest string  `json:"manifest,omitempty"` // one file's
	Shards   []Shard `json:"shards,omitempty"`   // a split's files
	Keys     uint64  `json:"keys"`
	Expires  uint64  `json:"expires"`
	Members  uint64  `json:"members,omitempty"`
	Commands *uint64 `json:"commands,omitempty"` // RESP
	Bytes    int64   `json:"bytes"`
	Seconds  float64 `json:"seconds"`
	// CountSeconds is the part of Seconds a split spent counting its shards' keys first.
	CountSeconds  *float64 `json:"count_seconds,omitempty"`
	KeysPerSecond float64  `json:"keys_per_second"`
	Target        string   `json:"target"`
	RDBVersion    int      `json:"rdb_version,omitempty"` // RDB files
	Checksum      string   `json:"checksum,omitempty"`    // one RDB file
	// Streams counts the streams that commands wrote as RESTORE (RESP).
	Streams resp.StreamCounts `json:"streams,omitzero"`
	// Removed lists the shard files of an earlier, larger split that were removed.
	Removed []string `json:"removed,omitempty"`
	// ShardIndex is the one shard written (--shard-index), of TotalShards; nil for all.
	ShardIndex   *int `json:"shard_index,omitempty"`
	TotalShards  int  `json:"total_shards,omitempty"`
	ImportCounts      // imports only
}

// Shard describes one shard file.
type Shard struct {
	File     string          `json:"file"`
	Manifest string          `json:"manifest"`
	Slots    []cluster.Range `json:"slots"`
	NodeID   string          `json:"node_id,omitempty"`
	Addr     string          `json:"addr,omitempty"`
	Keys     uint64          `json:"keys"`
	Expires  uint64          `json:"expires"`
	Members  uint64          `json:"members,omitempty"`
	Bytes    int64           `json:"bytes"`
	Checksum string          `json:"checksum"`
}

// Text returns the summary for people.
func (sum Write) Text(extra string) string {
	var b strings.Builder
	switch {
	case sum.Format == "resp":
		fmt.Fprintf(&b, "wrote %d keys (%d with TTL) as %d commands to %s: %s in %.2fs, %.0f keys/s (RESP for %s)%s\n",
			sum.Keys, sum.Expires, *sum.Commands, sum.Output, human.Bytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.Target, extra)
		b.WriteString(StreamsNote(sum.Streams))
	case sum.Shards != nil:
		members := ""
		if sum.Members > 0 {
			members = fmt.Sprintf(", %d members", sum.Members)
		}
		shards := fmt.Sprintf("%d shards", len(sum.Shards))
		if sum.ShardIndex != nil {
			shards = fmt.Sprintf("shard %d of %d", *sum.ShardIndex, sum.TotalShards)
		}
		fmt.Fprintf(&b, "wrote %d keys (%d with TTL%s) in %s to %s: %s in %.2fs, %.0f keys/s (RDB %d, %s)%s\n",
			sum.Keys, sum.Expires, members, shards, sum.Output, human.Bytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.RDBVersion, sum.Target, extra)
		for _, s := range sum.Shards {
			node := ""
			if s.Addr != "" {
				node = " (" + s.Addr + ")"
			}
			fmt.Fprintf(&b, "  %s  slots %s%s: %d keys, %s\n", filepath.Base(s.File), cluster.Shard{Ranges: s.Slots}.RangesString(), node, s.Keys, human.Bytes(s.Bytes))
		}
		for _, p := range sum.Removed {
			fmt.Fprintf(&b, "  removed %s, left from an earlier split\n", p)
		}
	default:
		members := ""
		if sum.Members > 0 {
			rate := 0.0
			if sum.Seconds > 0 {
				rate = float64(sum.Members) / sum.Seconds
			}
			members = fmt.Sprintf(", %d members at %.0f/s", sum.Members, rate)
		}
		fmt.Fprintf(&b, "wrote %d keys (%d with TTL%s) to %s: %s in %.2fs, %.0f keys/s (RDB %d, %s)%s\n",
			sum.Keys, sum.Expires, members, sum.Output, human.Bytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.RDBVersion, sum.Target, extra)
	}
	return b.String()
}

// FromOutput returns the summary of the run that wrote res as opts say, with the counts an
// import adds (ic): a RESP stream with opts.RESP, the files of a split of opts.Layout (every
// shard's, or the one of opts.Shard), else one RDB file.
func FromOutput(res *output.Result, opts output.Options, ic ImportCounts) Write {
	st := res.Stats
	sum := Write{
		Output: res.Path, Manifest: res.Manifest,
		Keys: st.Keys, Expires: st.Expires, Members: st.Members, Bytes: st.Bytes,
		Seconds: res.Duration.Seconds(), KeysPerSecond: human.PerSecond(st.Keys, res.Duration),
		Target: res.Target, RDBVersion: res.RDBVersion, ImportCounts: ic,
	}
	switch {
	case opts.RESP != nil:
		sum.Format, sum.Commands, sum.Streams = "resp", &res.Commands, res.Streams
	case opts.Layout != nil:
		counted := res.CountDuration.Seconds()
		sum.CountSeconds, sum.Removed, sum.TotalShards, sum.ShardIndex = &counted, res.Removed, opts.Layout.Len(), opts.Shard
		for _, sr := range res.Shards {
			sh, st := opts.Layout.Shard(sr.Index), sr.Stats
			sum.Shards = append(sum.Shards, Shard{
				File: sr.Path, Manifest: manifest.PathFor(sr.Path), Slots: sh.Ranges, NodeID: sh.NodeID, Addr: sh.Addr,
				Keys: st.Keys, Expires: st.Expires, Members: st.Members, Bytes: st.Bytes, Checksum: manifest.FormatChecksum(st.Checksum),
			})
		}
	default:
		sum.Checksum = manifest.FormatChecksum(st.Checksum)
	}
	return sum
}
