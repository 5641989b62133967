package decoder

import (
	"fmt"
	"slices"

	"github.com/rdbgen/rdbgen/record"
)

// Redis 8.6's and 8.8's streams: type 26 (RDB_TYPE_STREAM_LISTPACKS_4, RDB 13) is type 21
// followed by the stream's idempotent-producer (IDMP) metadata; type 27
// (RDB_TYPE_STREAM_LISTPACKS_5, RDB 14) adds to each consumer group, after its consumers,
// a NACK zone: the group's pending entries that were negatively acknowledged and belong to
// no consumer. FORMATS.md names the readings these layouts follow. The entries, groups,
// pending entries and consumers read into the stream record as type 21's do; the IDMP
// metadata and the NACK zone are data no record holds: a stream holding some is refused
// naming the key, or, under Options.DropNewer, read without them (the NACKed entries left
// out of the group's pending entries, as no earlier format has a pending entry without a
// consumer), counted in Stats.NewerDropped.

const (
	streamV4 = 26 // RDB_TYPE_STREAM_LISTPACKS_4
	streamV5 = 27 // RDB_TYPE_STREAM_LISTPACKS_5

	// The IDMP settings of a stream no XCFGSET changed (idmp-duration 100 s, idmp-maxsize
	// 100): a stream with these, no producer and no counts holds nothing of IDMP's.
	idmpDefaultDuration = 100
	idmpDefaultMaxSize  = 100
)

// streamIDMP is a stream's idempotent-producer metadata as the file holds it.
type streamIDMP struct {
	duration, maxSize       uint64
	producers, iids         uint64
	iidsAdded, iidsRejected uint64
}

// empty tells whether the metadata is that of a stream that never used IDMP (a producer
// without ids, which rdbSaveStreamIdmpEntries writes when its ids expired, is one Redis
// drops when it loads it).
func (m streamIDMP) empty() bool {
	return m.iids == 0 && m.iidsAdded == 0 && m.iidsRejected == 0 &&
		m.duration == idmpDefaultDuration && m.maxSize == idmpDefaultMaxSize
}

// readStreamIDMP reads the IDMP metadata after a type 26 or 27 stream's groups: the duration
// and the maximum of tracked ids (lengths), the producers (a length; per producer its id, a
// string, then a length of entries, each an idempotent id, a string, and the stream id it
// added, two lengths), then the counts of ids added and of duplicates rejected (lengths).
func (rd *Reader) readStreamIDMP() error {
	in := rd.in
	var m streamIDMP
	var err error
	if m.duration, err = in.plainLength(); err != nil {
		return err
	}
	if m.maxSize, err = in.plainLength(); err != nil {
		return err
	}
	if m.producers, err = in.plainLength(); err != nil {
		return err
	}
	for range m.producers {
		if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
			return err
		}
		n, err := in.plainLength()
		if err != nil {
			return err
		}
		for range n {
			if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
				return err
			}
			if _, err := rd.streamID(); err != nil {
				return err
			}
		}
		m.iids += n
	}
	if m.iidsAdded, err = in.plainLength(); err != nil {
		return err
	}
	if m.iidsRejected, err = in.plainLength(); err != nil {
		return err
	}
	switch {
	case m.empty():
		return nil
	case !rd.opts.DropNewer:
		return fmt.Errorf("%w: stream idempotent-producer metadata (%d producers tracking %d ids, %d ids added, %d duplicates rejected, duration %d s, max size %d; RDB type %d); no target before Redis 8.6 holds it: drop it knowingly with --drop-newer",
			ErrNewerType, m.producers, m.iids, m.iidsAdded, m.iidsRejected, m.duration, m.maxSize, rd.recType)
	}
	rd.dropNewer("stream producer metadata")
	return nil
}

// readNackZone reads a type 27 group's NACK zone after its consumers: a length, then each
// NACKed entry's raw 16-byte id, each one of the group's pending entries (owner: whether a
// consumer owns it) that no consumer owns, each once.
func (rd *Reader) readNackZone(g *record.StreamGroup, owner map[record.StreamID]bool) error {
	n, err := rd.in.plainLength()
	if err != nil || n == 0 {
		return err
	}
	nacked := make(map[record.StreamID]bool, min(n, 1024))
	for range n {
		id, err := rd.rawID()
		if err != nil {
			return err
		}
		owned, pending := owner[id]
		switch {
		case !pending:
			return fmt.Errorf("%w: group %q: NACKed entry %s is not in the group's pending entries", errBadStream, g.Name, id)
		case owned:
			return fmt.Errorf("%w: group %q: NACKed entry %s has a consumer", errBadStream, g.Name, id)
		case nacked[id]:
			return fmt.Errorf("%w: group %q: NACKed entry %s twice", errBadStream, g.Name, id)
		}
		nacked[id] = true
	}
	if !rd.opts.DropNewer {
		return fmt.Errorf("%w: stream group %q has a NACK zone of %d entries (RDB type %d, Redis 8.8); no target before it holds one: drop it knowingly with --drop-newer (the NACKed entries leave the group's pending entries)",
			ErrNewerType, g.Name, n, rd.recType)
	}
	g.Pending = slices.DeleteFunc(g.Pending, func(p record.StreamPending) bool { return nacked[p.ID] })
	for id := range nacked {
		delete(owner, id)
	}
	rd.dropNewer("stream NACK zone")
	return nil
}
