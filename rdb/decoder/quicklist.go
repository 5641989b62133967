package decoder

import (
	"fmt"
	"io"

	"github.com/rdbgen/rdbgen/record"
)

// readQuicklist reads a quicklist (type 14: ziplist nodes; 18: listpack or plain nodes).
// Redis writes the number of nodes, not of elements, and a Sink needs the latter first, so
// the nodes are counted before the list is opened: held in memory (decompressed) while they
// take up to holdBeforeReread bytes, and past that, when the source can be read at an offset
// (a file), read a second time from the file; otherwise held up to Options.MaxHeldBytes.
func (rd *Reader) readQuicklist(t byte, exp int64, sink record.Sink) error {
	in := rd.in
	nodes, err := in.plainLength()
	if err != nil {
		return err
	}
	from := in.offset()
	limit := rd.opts.MaxHeldBytes
	if rd.ra != nil {
		limit = min(limit, holdBeforeReread)
	}
	rd.held, rd.heldEnds, rd.heldPlain = rd.held[:0], rd.heldEnds[:0], rd.heldPlain[:0]
	holding := true
	var total uint64
	for i := range nodes {
		node, plain, err := rd.quicklistNode(in, t, i)
		if err != nil {
			return err
		}
		n, err := nodeLen(t, node, plain)
		if err != nil {
			return err
		}
		total += n
		if !holding {
			continue
		}
		if len(rd.held)+len(node) > limit {
			if rd.ra == nil {
				return fmt.Errorf("%w: list: its quicklist passes %d bytes (Options.MaxHeldBytes)", ErrTooLarge, rd.opts.MaxHeldBytes)
			}
			holding = false
			continue
		}
		rd.held = append(rd.held, node...)
		rd.heldEnds = append(rd.heldEnds, len(rd.held))
		rd.heldPlain = append(rd.heldPlain, plain)
	}
	if total == 0 {
		rd.stats.Empty++
		return nil
	}
	if err := rd.begin(sink, 1, total, exp, false); err != nil {
		return err
	}
	if holding {
		start := 0
		for i, end := range rd.heldEnds {
			if err := rd.emitNode(t, rd.held[start:end], rd.heldPlain[i], sink); err != nil {
				return err
			}
			start = end
		}
		return s(sink.End(nil))
	}
	again := newInput(io.NewSectionReader(rd.ra, from, in.offset()-from), 64<<10)
	for i := range nodes {
		node, plain, err := rd.quicklistNode(again, t, i)
		if err != nil {
			return fmt.Errorf("read the quicklist again: %w", err)
		}
		if err := rd.emitNode(t, node, plain, sink); err != nil {
			return err
		}
	}
	return s(sink.End(nil))
}

// holdBeforeReread is how many bytes of a quicklist are held before it is read again from a
// file instead.
const holdBeforeReread = 8 << 20

// quicklistNode reads node i of a quicklist of type t from in, into rd.a.
func (rd *Reader) quicklistNode(in *input, t byte, i uint64) (node []byte, plain bool, err error) {
	if t == 18 {
		c, err := in.plainLength()
		if err != nil {
			return nil, false, err
		}
		if c != 1 && c != 2 {
			return nil, false, fmt.Errorf("%w quicklist: node %d has container %d", ErrCorrupt, i, c)
		}
		plain = c == 1
	}
	rd.a, err = in.str(rd.a, &rd.lzf)
	return rd.a, plain, err
}

// nodeLen returns the elements of a quicklist node, checking its header.
func nodeLen(t byte, node []byte, plain bool) (uint64, error) {
	if plain {
		return 1, nil
	}
	var it packIter
	if err := it.open(quicklistKind(t), node); err != nil {
		return 0, err
	}
	// An empty node is skipped, as Redis skips it (rdbLoadObject: "Silently skip empty
	// ziplists"); a list of empty nodes alone is an empty key, skipped too.
	n, err := blobEntries(it, t)
	return uint64(n), err
}

func quicklistKind(t byte) packKind {
	if t == 18 {
		return kindListpack
	}
	return kindZiplist
}

// emitNode adds the elements of a quicklist node to the open list.
func (rd *Reader) emitNode(t byte, node []byte, plain bool, sink record.Sink) error {
	if plain {
		if err := rd.add(sink, node, nil, 0, 0); err != nil {
			return err
		}
		if err := rd.member(); err != nil {
			return err
		}
		return nil
	}
	var it packIter
	if err := it.open(quicklistKind(t), node); err != nil {
		return err
	}
	return rd.emitBlob(&it, t, 1, sink)
}
