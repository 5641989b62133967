package memory

import (
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// Streams, approximately: the entries in listpack nodes filled as streamAppendItem fills
// them under the defaults stream-node-max-entries 100 and stream-node-max-bytes 4096 (a
// master entry of the first entry's field names, then each entry's flags, id deltas, values
// alone when its fields are the master's, and its entry count), each node in a radix tree
// keyed by its first id; consumer groups with their pending entries and consumers, each in
// radix trees too. The radix tree nodes are estimated, not modelled.
const (
	streamSize    = 80 // stream: rax, length, last, first and max deleted ids, entries added, cgroups
	raxSize       = 24 // rax: head, numele, numnodes
	raxHeadSize   = 4  // an empty raxNode header
	raxPerKey     = 48 // radix tree nodes per listpack node's 16-byte key, an estimate
	raxPerPending = 38 // radix tree nodes per pending id, in a group's or a consumer's pel, measured
	// raxPerPendingMs is what a pending id adds in each pel when its millisecond part is
	// not the previous id's (the common case of one entry per ms): a node for its sequence
	// bytes; measured on 5.0 to 7.4 and Valkey 8.0.
	raxPerPendingMs   = 20
	raxPerName        = 32  // radix tree nodes per group or consumer name beyond its bytes, an estimate
	streamCGSize      = 40  // streamCG: last id, entries read, pel, consumers
	streamNACKSize    = 24  // streamNACK: delivery time and count, consumer
	streamConsumerSz  = 24  // streamConsumer (7.0): seen time, name, pel
	streamNodeEntries = 100 // stream-node-max-entries
	streamNodeBytes   = 4096
)

// streamUsage counts the nodes and groups of a stream as they arrive.
type streamUsage struct {
	bytes   int64 // closed nodes, groups
	nodes   int64
	cur     int // bytes of the open node's listpack; 0 when none is open
	count   int // entries in the open node
	master  record.StreamID
	fields  [][]byte // the open node's master field names
	entries uint64
	groups  int
	a       *allocator
}

// add counts an entry whose fields alternate name and value.
func (s *streamUsage) add(id record.StreamID, fields [][]byte) {
	total := 0
	for _, f := range fields {
		total += len(f)
	}
	if s.cur > 0 && (s.cur+total >= streamNodeBytes || s.count >= streamNodeEntries) {
		s.finish()
	}
	n := len(fields) / 2
	if s.cur == 0 {
		s.nodes++
		s.master, s.count = id, 0
		s.fields = s.fields[:0]
		s.cur = encoder.ListpackOverhead + 3*encoder.ListpackIntSize(1) // count, deleted, field count
		for i := 0; i+1 < len(fields); i += 2 {
			s.fields = append(s.fields, append([]byte(nil), fields[i]...))
			s.cur += encoder.ListpackEntrySize(fields[i])
		}
		s.cur += encoder.ListpackIntSize(0) // master terminator
	}
	same := n == len(s.fields)
	for i := 0; same && i < n; i++ {
		same = string(fields[2*i]) == string(s.fields[i])
	}
	b := encoder.ListpackIntSize(0) + // flags
		encoder.ListpackIntSize(int64(id.Ms-s.master.Ms)) +
		encoder.ListpackIntSize(int64(id.Seq-s.master.Seq))
	count := n + 3
	for i := 0; i+1 < len(fields); i += 2 {
		if !same {
			b += encoder.ListpackEntrySize(fields[i])
		}
		b += encoder.ListpackEntrySize(fields[i+1])
	}
	if !same {
		b += encoder.ListpackIntSize(int64(n))
		count += n + 1
	}
	s.cur += b + encoder.ListpackIntSize(int64(count))
	s.count++
	s.entries++
}

// finish closes the open node.
func (s *streamUsage) finish() {
	if s.cur > 0 {
		s.bytes += s.a.size(int64(s.cur)) + raxPerKey
		s.cur = 0
	}
}

// group counts a consumer group.
func (s *streamUsage) group(g *record.StreamGroup) {
	if s.groups == 0 {
		s.bytes += s.a.size(raxSize) + s.a.size(raxHeadSize) // the cgroups tree
	}
	s.groups++
	s.bytes += s.a.size(streamCGSize) + int64(len(g.Name)) + raxPerName +
		2*(s.a.size(raxSize)+s.a.size(raxHeadSize)) // pel and consumers trees
	s.bytes += int64(len(g.Pending)) * (s.a.size(streamNACKSize) + 2*raxPerPending) // group and consumer pels
	for i, p := range g.Pending {
		if i == 0 || p.ID.Ms != g.Pending[i-1].ID.Ms {
			s.bytes += 2 * raxPerPendingMs
		}
	}
	for _, c := range g.Consumers {
		s.bytes += s.a.size(streamConsumerSz) + s.a.sds(len(c.Name)) + int64(len(c.Name)) + raxPerName +
			s.a.size(raxSize) + s.a.size(raxHeadSize)
	}
}

// total returns the stream's bytes, robj excluded.
func (s *streamUsage) total() int64 {
	s.finish()
	return s.a.size(streamSize) + s.a.size(raxSize) + s.a.size(raxHeadSize) + s.bytes
}
