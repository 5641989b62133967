package export

import (
	"strconv"

	"github.com/rdbgen/rdbgen/record"
)

// streamState is the open stream: its node of entries, and what its metadata derives from.
type streamState struct {
	entries     uint64 // entries written
	first, last record.StreamID
	nodeOpen    bool
	names       []byte // the open node's field names, each with its length first
}

func (s *streamState) begin() { *s = streamState{names: s.names[:0]} }

// add appends one entry: into the open node when it has the same field names, else into a
// node it opens.
func (s *streamState) add(b []byte, m *record.Member) []byte {
	if s.entries == 0 {
		s.first = m.ID
		b = append(b, `,"entries":[`...)
	}
	s.entries++
	s.last = m.ID
	if s.nodeOpen && s.sameNames(m.Fields) {
		b = append(b, ',')
	} else {
		if s.nodeOpen {
			b = append(b, "]},"...)
		}
		s.nodeOpen = true
		s.names = s.names[:0]
		b = append(b, `{"firstMsgId":`...)
		b = appendID(b, m.ID)
		b = append(b, `,"fields":[`...)
		for i := 0; i < len(m.Fields); i += 2 {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.Fields[i])
			s.names = appendName(s.names, m.Fields[i])
		}
		b = append(b, `],"msgs":[`...)
	}
	b = append(b, `{"id":`...)
	b = appendID(b, m.ID)
	b = append(b, `,"fields":{`...)
	for i := 0; i+1 < len(m.Fields); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, m.Fields[i])
		b = append(b, ':')
		b = appendString(b, m.Fields[i+1])
	}
	return append(b, `},"deleted":false}`...)
}

// appendName appends a field name with its length before it, 4 bytes little-endian.
func appendName(b, name []byte) []byte {
	n := len(name)
	b = append(b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	return append(b, name...)
}

// sameNames reports whether the entry's field names are those of the open node.
func (s *streamState) sameNames(fields [][]byte) bool {
	p := s.names
	for i := 0; i < len(fields); i += 2 {
		if len(p) < 4 {
			return false
		}
		n := int(p[0]) | int(p[1])<<8 | int(p[2])<<16 | int(p[3])<<24
		if len(p) < 4+n || string(p[4:4+n]) != string(fields[i]) {
			return false
		}
		p = p[4+n:]
	}
	return len(p) == 0
}

// end closes the entries and appends the groups and the metadata, for the stream version
// given (0: unknown, written as 3).
func (s *streamState) end(b []byte, t *record.StreamTail, version int) []byte {
	if version == 0 {
		version = 3
	}
	if s.entries > 0 {
		b = append(b, "]}]"...)
	}
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, int64(version), 10)
	if len(t.Groups) > 0 {
		b = append(b, `,"groups":[`...)
		for i := range t.Groups {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendGroup(b, &t.Groups[i], version)
		}
		b = append(b, ']')
	}
	// The zero fields of the metadata derive from the entries (record.StreamMeta).
	m := t.Meta
	if m.Length == 0 {
		m.Length = s.entries
	}
	if m.LastID == (record.StreamID{}) {
		m.LastID = s.last
	}
	b = append(b, `,"len":`...)
	b = strconv.AppendUint(b, m.Length, 10)
	b = append(b, `,"lastId":`...)
	b = appendID(b, m.LastID)
	if version >= 2 {
		if m.FirstID == (record.StreamID{}) {
			m.FirstID = s.first
		}
		if m.EntriesAdded == 0 {
			m.EntriesAdded = m.Length
		}
		b = append(b, `,"firstId":`...)
		b = appendID(b, m.FirstID)
		b = append(b, `,"maxDeletedId":`...)
		b = appendID(b, m.MaxDeletedID)
		if m.EntriesAdded != 0 {
			b = append(b, `,"addedEntriesCount":`...)
			b = strconv.AppendUint(b, m.EntriesAdded, 10)
		}
	}
	return b
}

// appendGroup appends a consumer group as the tool's model.StreamGroup, in which unsigned
// numbers hold what the file holds: an unknown entries-read (-1) or a consumer never active
// (-1) is 2^64-1. A version 1 stream has no entries-read: the tool writes none. Before
// version 3 a consumer's active time is its seen time, as the tool and servers read it.
func appendGroup(b []byte, g *record.StreamGroup, version int) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, g.Name)
	b = append(b, `,"lastId":`...)
	b = appendID(b, g.LastID)
	if len(g.Pending) > 0 {
		b = append(b, `,"pending":[`...)
		for i, p := range g.Pending {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = appendID(b, p.ID)
			b = append(b, `,"deliveryTime":`...)
			b = strconv.AppendUint(b, uint64(p.DeliveryTimeMS), 10)
			b = append(b, `,"deliveryCount":`...)
			b = strconv.AppendUint(b, p.DeliveryCount, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(g.Consumers) > 0 {
		b = append(b, `,"consumers":[`...)
		for i := range g.Consumers {
			c := &g.Consumers[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendString(b, c.Name)
			b = append(b, `,"seenTime":`...)
			b = strconv.AppendUint(b, uint64(c.SeenTimeMS), 10)
			if len(c.Pending) > 0 {
				b = append(b, `,"pending":[`...)
				for k, id := range c.Pending {
					if k > 0 {
						b = append(b, ',')
					}
					b = appendID(b, id)
				}
				b = append(b, ']')
			}
			b = append(b, `,"activeTime":`...)
			b = strconv.AppendUint(b, uint64(c.ActiveTimeMS), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if version >= 2 && g.EntriesRead != 0 {
		b = append(b, `,"entriesRead":`...)
		b = strconv.AppendUint(b, uint64(g.EntriesRead), 10)
	}
	return append(b, '}')
}

// appendID appends a stream id as the JSON string "ms-seq".
func appendID(b []byte, id record.StreamID) []byte {
	b = append(b, '"')
	b = strconv.AppendUint(b, id.Ms, 10)
	b = append(b, '-')
	b = strconv.AppendUint(b, id.Seq, 10)
	return append(b, '"')
}
