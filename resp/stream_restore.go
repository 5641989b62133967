package resp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// Streams that commands cannot rebuild. XCLAIM … FORCE claims only an entry the stream holds,
// so a pending entry whose entry was deleted (delivered, then XDEL) is lost; a consumer
// without pending entries needs XGROUP CREATECONSUMER (6.2+). Such a stream is sent as one
// RESTORE key ttl payload REPLACE [ABSTTL] instead: the value serialized as the server's RDB
// holds it (encoder.PayloadWriter), which carries everything, consumers' seen and active
// times included. Every stream is written into a payload writer as its commands are made
// (its nodes spool to a file beyond a few MiB, as the RDB writer's do), and the payload is
// finished only for a stream that needs it; the commands already sent are replaced by it.

// DefaultMaxPayload is Redis's default proto-max-bulk-len: the largest argument, and so the
// largest RESTORE payload, a server takes.
const DefaultMaxPayload = 512 << 20

// ErrLostPending is wrapped by the error for a stream that commands cannot rebuild and
// RESTORE cannot carry (its payload is larger than the server takes).
var ErrLostPending = errors.New("stream state that commands cannot rebuild")

// StreamCounts counts what the streams sent needed.
type StreamCounts struct {
	// Restored counts the streams sent as RESTORE, since commands could not rebuild them.
	Restored uint64 `json:"restored,omitempty"`
	// LostPending and LostConsumers count, with Options.DropLostPending, the pending entries
	// whose entry was deleted and the consumers without pending entries (before 6.2) that
	// the streams rebuilt by commands lack.
	LostPending   uint64 `json:"lost_pending,omitempty"`
	LostConsumers uint64 `json:"lost_consumers,omitempty"`
	// Consumers counts the consumers made by commands: their seen and active times are the
	// load's, since no command sets them.
	Consumers uint64 `json:"consumers,omitempty"`
}

// Add adds o's counts to c.
func (c *StreamCounts) Add(o StreamCounts) {
	c.Restored += o.Restored
	c.LostPending += o.LostPending
	c.LostConsumers += o.LostConsumers
	c.Consumers += o.Consumers
}

// StreamCounts returns the counts of the streams sent so far.
func (c *Commands) StreamCounts() StreamCounts { return c.streams }

// RDBVersion returns the RDB version of a server of version v, the version of the
// payloads RESTORE takes there: that of the newest Redis target (rdb.Targets) not newer
// than v; rdb.MaxVersion for the zero Version; 0 for a server before the oldest target.
func (v Version) RDBVersion() int {
	if v == (Version{}) {
		return rdb.MaxVersion
	}
	version := 0
	for _, t := range rdb.Targets() {
		tv, err := ParseVersion(t.ServerVer)
		if err == nil && v.AtLeast(tv.Major, tv.Minor) && t.RDBVersion > version {
			version = t.RDBVersion
		}
	}
	return version
}

// payloadWriter returns the writer of stream payloads, made on first use.
func (c *Commands) payloadWriter() (*rdbsink.PayloadWriter, error) {
	if c.payload != nil {
		return c.payload, nil
	}
	version := c.restoreVersion()
	if !rdb.Can(version, rdb.Streams) {
		return nil, fmt.Errorf("the server is %s, which has no streams: %w", c.o.Server, ErrServerTooOld)
	}
	// Options.Restore's payloads are not compressed: the other methods send the values as
	// they are too, and LZF cost more CPU, ours and the server's, than its bytes saved
	// (loader's BenchmarkRestoreVsMass).
	p, err := rdbsink.NewPayloadWriter(encoder.Options{RDBVersion: version, DisableCompression: c.o.Restore, DropFieldTTL: c.o.DropFieldTTL}, c.o.MaxPayload)
	if err != nil {
		return nil, err
	}
	c.payload = p
	return p, nil
}

// restoreVersion is the RDB version of the RESTORE payloads: Options.RDBVersion, else the
// server's.
func (c *Commands) restoreVersion() int {
	if c.o.RDBVersion != 0 {
		return c.o.RDBVersion
	}
	return c.o.Server.RDBVersion()
}

// Close releases the temporary file of a stream left open.
func (c *Commands) Close() error {
	if c.payload != nil {
		return c.payload.Close()
	}
	return nil
}

// payloadStep passes one call to the stream's payload writer, unless it failed: its error
// is kept for the moment the payload is needed.
func (c *Commands) payloadStep(step func(*rdbsink.PayloadWriter) error) {
	s := c.stream
	if c.o.DropLostPending || s.payloadErr != nil {
		return
	}
	p, err := c.payloadWriter()
	if err == nil {
		err = step(p)
	}
	s.payloadErr = err
}

// lostInGroup returns the pending ids of g whose entries the stream lacks, sorted, and
// the number of g's consumers that commands cannot make: before 6.2, those left without
// pending entries.
func (c *Commands) lostInGroup(g *record.StreamGroup) ([]record.StreamID, uint64) {
	ids := make([]record.StreamID, len(g.Pending))
	for i, p := range g.Pending {
		ids[i] = p.ID
	}
	slices.SortFunc(ids, compareIDs)
	lost := c.stream.ids.missing(ids)
	consumers := uint64(0)
	if !c.o.Server.AtLeast(6, 2) {
		for _, k := range g.Consumers {
			if !slices.ContainsFunc(k.Pending, func(id record.StreamID) bool {
				_, gone := slices.BinarySearchFunc(lost, id, compareIDs)
				return !gone
			}) {
				consumers++
			}
		}
	}
	return lost, consumers
}

// restoreStream sends the open stream, whose tail is t, as RESTORE key ttl payload
// REPLACE, after the command held, as the record's last command.
func (c *Commands) restoreStream(t *record.StreamTail) error {
	s := c.stream
	err := s.payloadErr
	var payload []byte
	if err == nil {
		if err = c.payload.End(t); err == nil {
			payload, err = c.payload.Payload()
		}
	}
	if err != nil {
		// The entries sent so far go: nothing of the key is left half built.
		c.stream = nil
		c.start("DEL", c.key)
		if sendErr := c.send(c.key, false); sendErr != nil {
			return sendErr
		}
		if errors.Is(err, encoder.ErrPayloadTooLarge) {
			return c.fail(fmt.Errorf("write key %q: its stream holds %s, which only RESTORE carries, but its payload is too large for the server (%v, its proto-max-bulk-len): %w; --drop-lost-pending loads it without them",
				c.key, s.lostWhat(), err, ErrLostPending))
		}
		return c.fail(fmt.Errorf("write key %q: restore the stream: %w", c.key, err))
	}
	if s.haveHeld {
		c.args, c.buf = s.held, s.heldBuf
		if err := c.send(c.key, false); err != nil {
			return err
		}
	}
	c.streams.Restored++
	c.stream = nil
	err = c.sendRestore(c.key, payload, true)
	c.args, c.buf = nil, nil
	return err
}

// lostWhat says what of the open stream commands cannot rebuild.
func (s *streamState) lostWhat() string {
	switch {
	case s.lostPending > 0 && s.lostConsumers > 0:
		return fmt.Sprintf("%d pending entries whose entries were deleted and %d consumers without pending entries", s.lostPending, s.lostConsumers)
	case s.lostPending > 0:
		return fmt.Sprintf("%d pending entries whose entries were deleted", s.lostPending)
	}
	return fmt.Sprintf("%d consumers without pending entries (the server, before 6.2, has no XGROUP CREATECONSUMER)", s.lostConsumers)
}

// compareIDs orders stream ids.
func compareIDs(a, b record.StreamID) int {
	switch {
	case a.Less(b):
		return -1
	case b.Less(a):
		return 1
	}
	return 0
}

// idLog holds the ids of a stream's entries, which rise, compactly: each as the varint
// difference of its ms from the one before and its seq (or, within one ms, the difference
// of its seq), a few bytes an entry, with every idMarkEvery-th id in full in marks for
// lookups.
type idLog struct {
	b     []byte
	n     int
	last  record.StreamID
	marks []idMark
}

// An idMark is an id of the log kept in full, and where in the log the ids after it start.
type idMark struct {
	id  record.StreamID
	off int
}

// idMarkEvery is the number of ids between two marks.
const idMarkEvery = 256

// reset empties the log.
func (l *idLog) reset() { l.b, l.n, l.last, l.marks = l.b[:0], 0, record.StreamID{}, l.marks[:0] }

// add appends id, larger than the ids before it.
func (l *idLog) add(id record.StreamID) {
	switch {
	case l.n%idMarkEvery == 0:
		l.marks = append(l.marks, idMark{id, len(l.b)})
	case id.Ms == l.last.Ms:
		l.b = binary.AppendUvarint(binary.AppendUvarint(l.b, 0), id.Seq-l.last.Seq)
	default:
		l.b = binary.AppendUvarint(binary.AppendUvarint(l.b, id.Ms-l.last.Ms), id.Seq)
	}
	l.n++
	l.last = id
}

// missing returns the ids of sorted that the log lacks.
func (l *idLog) missing(sorted []record.StreamID) []record.StreamID {
	var lost []record.StreamID
	mark, off, cur, left := -1, 0, record.StreamID{}, 0 // the position: ids left in its mark
	for _, id := range sorted {
		// The last mark at or before id; move there if it is past the position.
		m := sort.Search(len(l.marks), func(i int) bool { return id.Less(l.marks[i].id) }) - 1
		if m < 0 {
			lost = append(lost, id)
			continue
		}
		if m > mark {
			mark, off, cur = m, l.marks[m].off, l.marks[m].id
			left = min(idMarkEvery, l.n-m*idMarkEvery) - 1
		}
		for cur.Less(id) && left > 0 {
			dms, n := binary.Uvarint(l.b[off:])
			seq, k := binary.Uvarint(l.b[off+n:])
			off += n + k
			if dms == 0 {
				cur.Seq += seq
			} else {
				cur = record.StreamID{Ms: cur.Ms + dms, Seq: seq}
			}
			left--
		}
		if cur != id {
			lost = append(lost, id)
		}
	}
	return lost
}
