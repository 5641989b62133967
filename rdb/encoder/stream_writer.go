package encoder

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
)

// Streams are written as the server writes them: type 15 (RDB 9), 19 (RDB 10) or 21 (RDB
// 11+). Entries are packed into listpack nodes exactly as streamAppendItem packs them: a
// master entry holding the first entry's field names, then per entry its flags, the ms and
// seq differences from the node's first id, its values (with the SAMEFIELDS flag when its
// field names are the master's) or its fields and values, and its lp-count. A new node starts
// when the tail node's bytes plus the new entry's fields and values reach
// StreamNodeMaxBytes, or it holds StreamNodeMaxEntries entries.
//
// The node count comes before the nodes, so finished nodes are spooled (memory up to a
// bound, then a temporary file) until End; the open node is at most
// StreamNodeMaxBytes plus one entry.

// Record type bytes of streams and hashes with field TTLs.
const (
	typeStreamListpacks  = 15
	typeStreamListpacks2 = 19
	typeStreamListpacks3 = 21
)

// Stream entry flags (t_stream.c).
const (
	streamItemSameFields = 2
)

// Errors of stream writes, for errors.Is.
var (
	ErrStreamID     = errors.New("encoder: stream entry ids must rise")
	ErrStreamFields = errors.New("encoder: a stream entry needs field and value pairs")
	ErrStreamMeta   = errors.New("encoder: stream metadata disagrees with its entries")
	ErrStreamGroup  = errors.New("encoder: invalid consumer group")
)

// streamState is the open stream record.
type streamState struct {
	entries     uint64 // entries added
	first, last StreamID
	meta        StreamMeta
	groups      []StreamGroup
	nodes       uint64

	// The open node.
	open       bool
	master     StreamID
	masterRest []byte // the master entry after its count: deleted, field count, fields, 0
	fieldEnds  []int  // end of each master field name in fields
	fields     []byte // the master field names, back to back
	count      int    // entries in the node
	elements   int    // listpack elements after the master entry's count
	body       []byte // the node's entries
	enc        []byte // scratch: a node being encoded
}

// BeginStream opens a stream record; entries follow (AddStreamEntry), then its metadata and
// groups (SetStreamMeta, AddStreamGroup) and End.
// expireAtMS is the absolute expiry in Unix ms, or 0 for none. Streams need RDB 9 or later.
func (w *Writer) BeginStream(key []byte, expireAtMS int64) error {
	if err := w.checkRecord(key, expireAtMS); err != nil {
		return err
	}
	if !w.has.has(rdb.Streams) {
		return w.refuse(key, rdb.Streams)
	}
	c := &w.coll
	c.kind, c.key, c.expireAt, c.declared, c.added, c.plain = streamCollection, append(c.key[:0], key...), expireAtMS, 0, 0, false
	s := &w.strm
	s.entries, s.first, s.last, s.meta, s.groups, s.nodes, s.open = 0, StreamID{}, StreamID{}, StreamMeta{}, s.groups[:0], 0, false
	return nil
}

// streamStep checks that the open record is a stream, which may take the given call.
func (w *Writer) streamStep(what string) error {
	if err := w.usableRecord(); err != nil {
		return err
	}
	if w.coll.kind != streamCollection {
		return w.fail(fmt.Errorf("%w: %s while %s is open", ErrNoCollection, what, w.coll.kind))
	}
	return nil
}

// AddStreamEntry adds one entry to the open stream: fields alternate name and value. Ids
// must rise, from above 0-0.
func (w *Writer) AddStreamEntry(id StreamID, fields [][]byte) error {
	if err := w.streamStep("add a stream entry"); err != nil {
		return err
	}
	s := &w.strm
	if compareIDs(s.last, id) >= 0 {
		return w.fail(fmt.Errorf("write key %q: entry %s after %s: %w", w.coll.key, id, s.last, ErrStreamID))
	}
	if len(fields) == 0 || len(fields)%2 != 0 {
		return w.fail(fmt.Errorf("write key %q: entry %s has %d strings: %w", w.coll.key, id, len(fields), ErrStreamFields))
	}
	total := 0
	for _, f := range fields {
		total += len(f)
	}
	if s.open && w.streamNodeFull(total) {
		if err := w.finishStreamNode(); err != nil {
			return w.fail(err)
		}
	}
	n := len(fields) / 2
	flags := int64(0)
	if !s.open {
		w.startStreamNode(id, fields)
		flags = streamItemSameFields
	} else if s.sameFields(fields) {
		flags = streamItemSameFields
	}
	b := listpack.AppendInt(s.body, flags)
	b = listpack.AppendInt(b, int64(id.Ms-s.master.Ms))
	b = listpack.AppendInt(b, int64(id.Seq-s.master.Seq))
	lpCount := int64(n + 3)
	if flags&streamItemSameFields != 0 {
		for i := 1; i < len(fields); i += 2 {
			b = listpack.AppendEntry(b, fields[i])
		}
	} else {
		b = listpack.AppendInt(b, int64(n))
		for _, f := range fields {
			b = listpack.AppendEntry(b, f)
		}
		lpCount += int64(n + 1)
	}
	s.body = listpack.AppendInt(b, lpCount)
	s.elements += int(lpCount) + 1
	s.count++
	if s.entries == 0 {
		s.first = id
	}
	s.entries++
	s.last = id
	w.stats.Members++
	return nil
}

// streamNodeFull reports whether the open node takes no entry whose fields and values take
// total bytes (streamAppendItem).
func (w *Writer) streamNodeFull(total int) bool {
	s := &w.strm
	maxBytes := w.limits.StreamNodeMaxBytes
	if maxBytes == 0 || maxBytes > rdb.StreamNodeMaxSize {
		maxBytes = rdb.StreamNodeMaxSize
	}
	if s.nodeBytes()+total >= maxBytes {
		return true
	}
	return w.limits.StreamNodeMaxEntries != 0 && s.count >= w.limits.StreamNodeMaxEntries
}

// nodeBytes returns the size of the open node's listpack.
func (s *streamState) nodeBytes() int {
	return len(listpack.AppendInt(s.enc[:0], int64(s.count))) + 6 + len(s.masterRest) + len(s.body) + 1
}

// startStreamNode opens a node whose master entry is id with the field names of fields.
func (w *Writer) startStreamNode(id StreamID, fields [][]byte) {
	s := &w.strm
	s.open, s.master, s.count, s.body = true, id, 0, s.body[:0]
	s.fields, s.fieldEnds = s.fields[:0], s.fieldEnds[:0]
	b := listpack.AppendInt(s.masterRest[:0], 0) // deleted
	b = listpack.AppendInt(b, int64(len(fields)/2))
	for i := 0; i < len(fields); i += 2 {
		b = listpack.AppendEntry(b, fields[i])
		s.fields = append(s.fields, fields[i]...)
		s.fieldEnds = append(s.fieldEnds, len(s.fields))
	}
	s.masterRest = listpack.AppendInt(b, 0)
	s.elements = 2 + len(fields)/2 + 1
}

// sameFields reports whether the field names of fields are the master entry's, in order.
func (s *streamState) sameFields(fields [][]byte) bool {
	if len(fields)/2 != len(s.fieldEnds) {
		return false
	}
	start := 0
	for i, end := range s.fieldEnds {
		if !bytes.Equal(fields[2*i], s.fields[start:end]) {
			return false
		}
		start = end
	}
	return true
}

// finishStreamNode encodes the open node, its key and listpack, into the spool.
func (w *Writer) finishStreamNode() error {
	s := &w.strm
	s.open = false
	lp := listpack.AppendHeader(s.enc[:0])
	lp = listpack.AppendInt(lp, int64(s.count))
	lp = append(lp, s.masterRest...)
	lp = append(lp, s.body...)
	lp = listpack.Finish(lp, 0, s.elements+1)
	var key [16]byte
	binary.BigEndian.PutUint64(key[:8], s.master.Ms)
	binary.BigEndian.PutUint64(key[8:], s.master.Seq)
	at := len(lp)
	out := w.appendString(lp, key[:])
	out = w.appendString(out, lp[:at])
	s.enc = out
	s.nodes++
	return w.spool.write(out[at:])
}

// SetStreamMeta sets the open stream's metadata; it comes after the entries.
func (w *Writer) SetStreamMeta(meta StreamMeta) error {
	if err := w.streamStep("set the stream metadata"); err != nil {
		return err
	}
	w.strm.meta = meta
	return nil
}

// endStream writes the open stream: its nodes, metadata and groups.
func (w *Writer) endStream() error {
	s := &w.strm
	if s.open {
		if err := w.finishStreamNode(); err != nil {
			return err
		}
	}
	m, err := s.derivedMeta()
	if err != nil {
		return fmt.Errorf("write key %q: %w", w.coll.key, err)
	}
	slices.SortFunc(s.groups, func(a, b StreamGroup) int { return bytes.Compare(a.Name, b.Name) })
	for i := 1; i < len(s.groups); i++ {
		if bytes.Equal(s.groups[i-1].Name, s.groups[i].Name) {
			return fmt.Errorf("write key %q: %w: group %q twice", w.coll.key, ErrStreamGroup, s.groups[i].Name)
		}
	}
	typ := byte(typeStreamListpacks3)
	switch {
	case !w.has.has(rdb.StreamMetadata):
		typ = typeStreamListpacks
	case !w.has.has(rdb.ConsumerActiveTime):
		typ = typeStreamListpacks2
	}
	w.appendRecordHeader(w.coll.key, w.coll.expireAt, typ)
	w.buf = appendLength(w.buf, s.nodes)
	if err := w.copySpool(&w.spool); err != nil {
		return err
	}
	b := appendLength(w.buf, m.Length)
	b = appendStreamID(b, m.LastID)
	if w.has.has(rdb.StreamMetadata) {
		b = appendStreamID(b, m.FirstID)
		b = appendStreamID(b, m.MaxDeletedID)
		b = appendLength(b, m.EntriesAdded)
	}
	b = appendLength(b, uint64(len(s.groups)))
	w.buf = b
	for i := range s.groups {
		w.appendStreamGroup(&s.groups[i])
		if err := w.maybeFlush(); err != nil {
			return err
		}
	}
	s.groups = s.groups[:0]
	return nil
}

// derivedMeta returns the stream's metadata with zero fields derived from its entries.
func (s *streamState) derivedMeta() (StreamMeta, error) {
	m := s.meta
	if m.Length == 0 {
		m.Length = s.entries
	}
	// A length other than the entries' count is written as given: Redis loads it as it is
	// (XLEN says it), and dumps of Redis 5.0 hold such streams.
	if m.LastID == (StreamID{}) {
		m.LastID = s.last
	}
	if compareIDs(m.LastID, s.last) < 0 {
		return m, fmt.Errorf("%w: last id %s before the last entry %s", ErrStreamMeta, m.LastID, s.last)
	}
	if m.FirstID == (StreamID{}) {
		m.FirstID = s.first
	}
	if m.EntriesAdded == 0 {
		m.EntriesAdded = m.Length
	}
	return m, nil
}
