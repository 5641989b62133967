package encoder

import "fmt"

// The stream vocabulary of the writer: entry ids, metadata and consumer groups, as a stream
// key holds them (t_stream.c).

// A StreamID is a stream entry id, ms-seq.
type StreamID struct {
	Ms, Seq uint64
}

// String formats id as Redis does: "ms-seq".
func (id StreamID) String() string { return fmt.Sprintf("%d-%d", id.Ms, id.Seq) }

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
	// Pending is the group's pending entries list. Every id in it is in the Pending list of
	// exactly one consumer.
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
	Pending      []StreamID // ids of the group's Pending list it owns
}
