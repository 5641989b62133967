package memory

import (
	"encoding/binary"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// Streams: the entries in listpack nodes filled as streamAppendItem fills them under the
// defaults stream-node-max-entries 100 and stream-node-max-bytes 4096 (a master entry of
// the first entry's field names, then each entry's flags, id deltas, values alone when its
// fields are the master's, and its entry count), each node in a radix tree keyed by its
// first id; consumer groups in a radix tree by name, each with its pending entries in a
// radix tree by id and its consumers in one by name, each consumer with its own pending
// ids in another. The trees are built as rax.c builds them (raxTree).
const (
	streamSize = 80 // stream: rax, length, last, first and max deleted ids, entries added, cgroups
	// streamSizeBefore70 is the stream before 7.0: rax, length, last id, cgroups.
	streamSizeBefore70   = 40
	raxSize              = 24 // rax: head, numele, numnodes
	streamCGSize         = 40 // streamCG: last id, entries read, pel, consumers
	streamCGSizeBefore70 = 32 // streamCG before 7.0: last id, pel, consumers
	streamNACKSize       = 24 // streamNACK: delivery time and count, consumer
	// streamConsumerSize is the streamConsumer of 7.2+: seen and active times, name, pel.
	streamConsumerSize         = 32
	streamConsumerSizeBefore72 = 24  // before 7.2: seen time, name, pel
	streamNodeEntries          = 100 // stream-node-max-entries
	streamNodeBytes            = 4096
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
	nodeIDs raxTree // the listpack nodes by first id
	cgroups raxTree // the groups by name
	a       *allocator
	m       *model // the release's struct sizes
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
		s.nodeIDs.insert(streamKey(id))
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
		s.bytes += s.a.size(int64(s.cur))
		s.cur = 0
	}
}

// streamKey returns id as rax keys it: milliseconds then sequence, big-endian.
func streamKey(id record.StreamID) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(make([]byte, 0, 16), id.Ms), id.Seq)
}

// group counts a consumer group: its streamCG and name, its pending entries, its
// consumers with their names and pending ids.
func (s *streamUsage) group(g *record.StreamGroup) {
	s.groups++
	s.cgroups.insert(g.Name)
	var pel, consumers raxTree
	for _, p := range g.Pending {
		pel.insert(streamKey(p.ID))
	}
	s.bytes += s.a.size(s.m.streamCGSize) + pel.bytes(s.a) + int64(len(g.Pending))*s.a.size(streamNACKSize)
	for _, c := range g.Consumers {
		consumers.insert(c.Name)
		var own raxTree
		for _, id := range c.Pending {
			own.insert(streamKey(id))
		}
		s.bytes += s.a.size(s.m.streamConsumerSize) + s.a.sds(len(c.Name)) + own.bytes(s.a)
	}
	s.bytes += consumers.bytes(s.a)
}

// total returns the stream's bytes, robj excluded.
func (s *streamUsage) total() int64 {
	s.finish()
	b := s.a.size(s.m.streamSize) + s.nodeIDs.bytes(s.a) + s.bytes
	if s.groups > 0 {
		b += s.cgroups.bytes(s.a)
	}
	return b
}
