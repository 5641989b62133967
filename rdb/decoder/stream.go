package decoder

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/rdbgen/rdbgen/record"
)

// Streams: types 15 (Redis 5.0-6.2), 19 (7.0), 21 (7.2+), 26 and 27 (8.6+, stream_v4.go), laid out as
// /work/shared/notes/rdb-streams-field-ttl.md §1 describes: listpack nodes keyed by their
// master id, the metadata, then the consumer groups with their pending entries and consumers.

// Stream entry flags.
const (
	streamDeleted    = 1
	streamSameFields = 2
)

func (rd *Reader) readStream(t byte, exp int64, sink record.Sink) error {
	in := rd.in
	nodes, err := in.plainLength()
	if err != nil {
		return err
	}
	rd.stats.Keys++
	if err := rd.open(sink, record.Header{Key: rd.key, Type: record.Stream, ExpireAtMS: exp}); err != nil {
		return err
	}
	var last *record.StreamID // the last entry's id: ids ascend through the nodes
	for i := range nodes {
		if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
			return err
		}
		if len(rd.a) != 16 {
			return fmt.Errorf("%w: node %d's key is %d bytes, not 16", errBadStream, i, len(rd.a))
		}
		master := record.StreamID{Ms: binary.BigEndian.Uint64(rd.a), Seq: binary.BigEndian.Uint64(rd.a[8:])}
		if rd.b, err = in.str(rd.b, &rd.lzf); err != nil {
			return err
		}
		if err := rd.streamNode(master, rd.b, &last, sink); err != nil {
			return fmt.Errorf("node %s: %w", master, err)
		}
	}
	tail := &rd.tail
	clear(tail.Groups)
	tail.Meta, tail.Groups = record.StreamMeta{}, tail.Groups[:0]
	meta := &tail.Meta
	if meta.Length, err = in.plainLength(); err != nil {
		return err
	}
	if meta.LastID, err = rd.streamID(); err != nil {
		return err
	}
	if t >= 19 {
		if meta.FirstID, err = rd.streamID(); err != nil {
			return err
		}
		if meta.MaxDeletedID, err = rd.streamID(); err != nil {
			return err
		}
		if meta.EntriesAdded, err = in.plainLength(); err != nil {
			return err
		}
	}
	groups, err := in.plainLength()
	if err != nil {
		return err
	}
	names := map[string]bool{}
	for range groups {
		g, err := rd.streamGroup(t)
		if err != nil {
			return err
		}
		if names[string(g.Name)] {
			return fmt.Errorf("%w: group %q twice", errBadStream, g.Name)
		}
		names[string(g.Name)] = true
		tail.Groups = append(tail.Groups, *g)
	}
	if t >= streamV4 {
		if err := rd.readStreamIDMP(); err != nil {
			return err
		}
	}
	return s(sink.End(tail))
}

// streamID reads an id as two lengths.
func (rd *Reader) streamID() (record.StreamID, error) {
	ms, err := rd.in.plainLength()
	if err != nil {
		return record.StreamID{}, err
	}
	seq, err := rd.in.plainLength()
	return record.StreamID{Ms: ms, Seq: seq}, err
}

// rawID reads a raw 16-byte big-endian id.
func (rd *Reader) rawID() (record.StreamID, error) {
	b, err := rd.in.next(16)
	if err != nil {
		return record.StreamID{}, err
	}
	return record.StreamID{Ms: binary.BigEndian.Uint64(b), Seq: binary.BigEndian.Uint64(b[8:])}, nil
}

func (rd *Reader) streamGroup(t byte) (*record.StreamGroup, error) {
	in := rd.in
	var g record.StreamGroup
	var err error
	if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
		return nil, err
	}
	g.Name = append([]byte{}, rd.a...)
	if g.LastID, err = rd.streamID(); err != nil {
		return nil, err
	}
	g.EntriesRead = -1
	if t >= 19 {
		v, err := in.plainLength()
		if err != nil {
			return nil, err
		}
		g.EntriesRead = int64(v)
	}
	n, err := in.plainLength()
	if err != nil {
		return nil, err
	}
	// owner tells, for each pending id of the group, whether a consumer owns it: Redis
	// refuses an id twice, a consumer's id that is not the group's, and (sanitizing) an
	// id no consumer owns.
	owner := map[record.StreamID]bool{}
	for range n {
		var p record.StreamPending
		if p.ID, err = rd.rawID(); err != nil {
			return nil, err
		}
		v, err := in.uint64LE()
		if err != nil {
			return nil, err
		}
		p.DeliveryTimeMS = int64(v)
		if p.DeliveryCount, err = in.plainLength(); err != nil {
			return nil, err
		}
		if _, ok := owner[p.ID]; ok {
			return nil, fmt.Errorf("%w: group %q: pending entry %s twice", errBadStream, g.Name, p.ID)
		}
		owner[p.ID] = false
		g.Pending = append(g.Pending, p)
	}
	if n, err = in.plainLength(); err != nil {
		return nil, err
	}
	consumers := map[string]bool{}
	for range n {
		var c record.StreamConsumer
		if rd.a, err = in.str(rd.a, &rd.lzf); err != nil {
			return nil, err
		}
		c.Name = append([]byte{}, rd.a...)
		if consumers[string(c.Name)] {
			return nil, fmt.Errorf("%w: group %q: consumer %q twice", errBadStream, g.Name, c.Name)
		}
		consumers[string(c.Name)] = true
		v, err := in.uint64LE()
		if err != nil {
			return nil, err
		}
		c.SeenTimeMS, c.ActiveTimeMS = int64(v), int64(v)
		if t >= 21 {
			if v, err = in.uint64LE(); err != nil {
				return nil, err
			}
			c.ActiveTimeMS = int64(v)
		}
		k, err := in.plainLength()
		if err != nil {
			return nil, err
		}
		for range k {
			id, err := rd.rawID()
			if err != nil {
				return nil, err
			}
			owned, ok := owner[id]
			switch {
			case !ok:
				return nil, fmt.Errorf("%w: group %q: consumer %q owns %s, which is not in the group's pending entries", errBadStream, g.Name, c.Name, id)
			case owned:
				return nil, fmt.Errorf("%w: group %q: pending entry %s owned twice (consumer %q)", errBadStream, g.Name, id, c.Name)
			}
			owner[id] = true
			c.Pending = append(c.Pending, id)
		}
		g.Consumers = append(g.Consumers, c)
	}
	if t == streamV5 {
		if err := rd.readNackZone(&g, owner); err != nil {
			return nil, err
		}
	}
	for _, p := range g.Pending {
		if !owner[p.ID] {
			return nil, fmt.Errorf("%w: group %q: pending entry %s has no consumer", errBadStream, g.Name, p.ID)
		}
	}
	return &g, nil
}

// lpInt reads a listpack entry that must be an integer (Redis also accepts its decimal text).
func lpInt(it *packIter) (int64, error) {
	s, v, isInt, ok := it.next()
	if !ok {
		if it.err != nil {
			return 0, it.err
		}
		return 0, fmt.Errorf("%w: listpack ends early", errBadStream)
	}
	if isInt {
		return v, nil
	}
	v, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q is not an integer", errBadStream, s)
	}
	return v, nil
}

// streamNode writes the live entries of one node's listpack. last is the id of the stream's
// entry before, nil for none; it is moved to the node's last.
func (rd *Reader) streamNode(master record.StreamID, lp []byte, last **record.StreamID, sink record.Sink) error {
	var it packIter
	if err := it.open(kindListpack, lp); err != nil {
		return err
	}
	rd.arena.reset()
	count, err := lpInt(&it)
	if err != nil {
		return err
	}
	deleted, err := lpInt(&it)
	if err != nil {
		return err
	}
	nf, err := lpInt(&it)
	if err != nil {
		return err
	}
	if count < 0 || deleted < 0 || nf < 0 || nf > int64(len(lp)) || count+deleted > int64(len(lp)) {
		return fmt.Errorf("%w: master entry counts %d, %d, %d", errBadStream, count, deleted, nf)
	}
	masterFields := make([][]byte, 0, nf)
	for range nf {
		s, v, isInt, ok := it.next()
		if !ok {
			return fmt.Errorf("%w: listpack ends in the master entry", errBadStream)
		}
		masterFields = append(masterFields, rd.entry(s, v, isInt))
	}
	if z, err := lpInt(&it); err != nil || z != 0 {
		return fmt.Errorf("%w: master entry not terminated by 0", errBadStream)
	}
	for range count + deleted {
		flags, err := lpInt(&it)
		if err != nil {
			return err
		}
		msd, err := lpInt(&it)
		if err != nil {
			return err
		}
		seqd, err := lpInt(&it)
		if err != nil {
			return err
		}
		id := record.StreamID{Ms: master.Ms + uint64(msd), Seq: master.Seq + uint64(seqd)}
		if *last != nil && !idAfter(id, **last) {
			return fmt.Errorf("%w: entry %s after %s: ids must ascend", errBadStream, id, **last)
		}
		if *last == nil {
			*last = new(record.StreamID)
		}
		**last = id
		rd.fields = rd.fields[:0]
		if flags&streamSameFields != 0 {
			for _, f := range masterFields {
				s, v, isInt, ok := it.next()
				if !ok {
					return fmt.Errorf("%w: entry %s ends early", errBadStream, id)
				}
				rd.fields = append(rd.fields, f, rd.entry(s, v, isInt))
			}
		} else {
			k, err := lpInt(&it)
			if err != nil {
				return err
			}
			if k < 0 || k > int64(len(lp)) {
				return fmt.Errorf("%w: entry %s has %d fields", errBadStream, id, k)
			}
			for range 2 * k {
				s, v, isInt, ok := it.next()
				if !ok {
					return fmt.Errorf("%w: entry %s ends early", errBadStream, id)
				}
				rd.fields = append(rd.fields, rd.entry(s, v, isInt))
			}
		}
		// lp-count: the entry's listpack entries before it, but for the master fields'
		// names when it shares them (streamValidateListpackIntegrity)
		lpCount, err := lpInt(&it)
		if err != nil {
			return err
		}
		if want := 3 + int64(len(rd.fields)/2); flags&streamSameFields == 0 && lpCount != want+1+int64(len(rd.fields)/2) ||
			flags&streamSameFields != 0 && lpCount != want {
			return fmt.Errorf("%w: entry %s: lp-count %d does not match its %d fields", errBadStream, id, lpCount, len(rd.fields)/2)
		}
		if flags&streamDeleted == 0 {
			m := &rd.mem
			m.ID, m.Fields = id, rd.fields
			if err := s(sink.Add(m)); err != nil {
				return err
			}
			if err := rd.member(); err != nil {
				return err
			}
		}
	}
	if _, _, _, ok := it.next(); ok || it.err != nil {
		return fmt.Errorf("%w: entries after the last", errBadStream)
	}
	return nil
}

// idAfter tells whether a comes after b.
func idAfter(a, b record.StreamID) bool {
	return a.Ms > b.Ms || a.Ms == b.Ms && a.Seq > b.Seq
}
