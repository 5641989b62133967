package record

import "fmt"

// A StreamID is a stream entry id, ms-seq.
type StreamID struct {
	Ms, Seq uint64
}

// String formats id as Redis does: "ms-seq".
func (id StreamID) String() string { return fmt.Sprintf("%d-%d", id.Ms, id.Seq) }

// Less reports whether id comes before o.
func (id StreamID) Less(o StreamID) bool {
	return id.Ms < o.Ms || (id.Ms == o.Ms && id.Seq < o.Seq)
}

// A StreamTail is what follows a stream's entries: its metadata and its consumer groups.
// End receives it.
type StreamTail struct {
	Meta   StreamMeta
	Groups []StreamGroup
}

// StreamMeta is the metadata a stream keeps beside its entries. The zero value of a field
// means "derive it": Length from the entries added, LastID and FirstID from the last and
// first entry, EntriesAdded from Length. MaxDeletedID stays 0-0 unless given.
type StreamMeta struct {
	Length       uint64   // live entries
	LastID       StreamID // the largest id ever added (may be past the last live entry)
	FirstID      StreamID // the first live entry (RDB 10+)
	MaxDeletedID StreamID // the largest id deleted (RDB 10+)
	EntriesAdded uint64   // entries ever added (RDB 10+)
}

// A StreamGroup is a consumer group with its pending entries list and consumers.
type StreamGroup struct {
	Name        []byte
	LastID      StreamID // the last id delivered to the group
	EntriesRead int64    // entries the group has read, -1 when unknown (RDB 10+)
	// Pending is the group's pending entries list, in ascending id order. Every id in it is
	// in the Pending list of exactly one consumer.
	Pending   []StreamPending
	Consumers []StreamConsumer
}

// A StreamPending is one entry of a group's pending entries list.
type StreamPending struct {
	ID             StreamID
	DeliveryTimeMS int64  // Unix ms of the last delivery
	DeliveryCount  uint64 // times delivered
}

// A StreamConsumer is one consumer of a group.
type StreamConsumer struct {
	Name         []byte
	SeenTimeMS   int64      // Unix ms of the consumer's last interaction
	ActiveTimeMS int64      // Unix ms of its last successful read, -1 for never (RDB 11+)
	Pending      []StreamID // ids of the group's Pending list it owns, ascending
}

// Clone returns a deep copy of g, sharing no memory with it.
func (g *StreamGroup) Clone() StreamGroup {
	cp := *g
	cp.Name = clone(g.Name)
	cp.Pending = append([]StreamPending(nil), g.Pending...)
	cp.Consumers = make([]StreamConsumer, len(g.Consumers))
	for i, k := range g.Consumers {
		k.Name = clone(k.Name)
		k.Pending = append([]StreamID(nil), k.Pending...)
		cp.Consumers[i] = k
	}
	return cp
}
