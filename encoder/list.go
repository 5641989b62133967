package encoder

// Lists are quicklists, as Redis writes them: a count of nodes, then each node, a listpack
// (type 18, RDB 10+, each node preceded by its container: 2 packed, 1 plain) or a ziplist
// (type 14, before). Nodes are filled the way quicklistPushTail fills them under
// ListMaxListpackSize, so the server keeps them as they are.
//
// The node count comes before the nodes and depends on every element, so a list is held
// until EndCollection while its elements take at most maxListHeld bytes. A longer list is
// written in the plain type 1 (a count of elements, then the elements), streamed in constant
// memory; every Redis loads it, building its quicklist as it reads.

// maxListHeld is the most element bytes a list may take and still be held for a quicklist.
const maxListHeld = 1 << 20

// nodeSizeLimits are the quicklist node sizes of list-max-listpack-size -1 to -5.
var nodeSizeLimits = [...]int{4096, 8192, 16384, 32768, 65536}

// nodeSafetyLimit is the largest node when the fill is a count of elements.
const nodeSafetyLimit = 8192

// A quicklistNode is one node of a held list, at blob[start:end].
type quicklistNode struct {
	start, end int
	plain      bool // a single large element stored as it is
}

// BeginList opens a list record of the given number of elements, each then added with
// AddElement. expireAtMS is the absolute expiry in Unix ms, or 0 for none.
func (w *Writer) BeginList(key []byte, elements uint64, expireAtMS int64) error {
	return w.beginCollection(listCollection, key, elements, expireAtMS)
}

// AddElement appends an element to the open list.
func (w *Writer) AddElement(element []byte) error {
	if err := w.checkAdd(listCollection, element); err != nil {
		return err
	}
	c := &w.coll
	if !c.plain {
		c.hold(element)
		if len(c.members) <= maxListHeld {
			return nil
		}
		w.startPlain(typeList)
		return w.maybeFlush()
	}
	w.buf = w.appendString(w.buf, element)
	return w.maybeFlush()
}

// endList writes a held list as a quicklist.
func (w *Writer) endList() {
	c := &w.coll
	c.pack.ziplist = w.version < 10
	c.nodes = c.nodes[:0]
	b := c.blob[:0]
	open := false
	for i := range c.ends {
		e := c.member(i)
		if w.isLargeElement(len(e)) {
			if open {
				b = c.pack.finish(b)
				c.nodes[len(c.nodes)-1].end = len(b)
				open = false
			}
			c.nodes = append(c.nodes, quicklistNode{start: len(b), end: len(b) + len(e), plain: true})
			b = append(b, e...)
			continue
		}
		if open && !w.nodeAllows(c.pack.size(b), len(e), c.pack.count) {
			b = c.pack.finish(b)
			c.nodes[len(c.nodes)-1].end = len(b)
			open = false
		}
		if !open {
			c.nodes = append(c.nodes, quicklistNode{start: len(b)})
			b = c.pack.begin(b)
			open = true
		}
		b = c.pack.add(b, e)
	}
	if open {
		b = c.pack.finish(b)
		c.nodes[len(c.nodes)-1].end = len(b)
	}
	c.blob = b

	typ := byte(typeListQuicklist2)
	if w.version < 10 {
		typ = typeListQuicklist
	}
	w.appendRecordHeader(c.key, c.expireAt, typ)
	w.buf = appendLength(w.buf, uint64(len(c.nodes)))
	for _, n := range c.nodes {
		if w.version >= 10 {
			container := uint64(quicklistNodePacked)
			if n.plain {
				container = quicklistNodePlain
			}
			w.buf = appendLength(w.buf, container)
		}
		w.buf = w.appendString(w.buf, b[n.start:n.end])
	}
}

// isLargeElement reports whether Redis gives an element of n bytes a plain node of its own:
// from Redis 7.4 (RDB 12) when it exceeds the node size limit, in 7.0 and 7.2 from 1 GiB,
// and never before.
func (w *Writer) isLargeElement(n int) bool {
	switch fill := w.limits.ListMaxListpackSize; {
	case w.version >= 12 && fill < 0:
		return n > nodeSizeLimits[-fill-1]
	case w.version >= 12:
		return n > nodeSafetyLimit
	case w.version >= 10:
		return n >= 1<<30
	default:
		return false
	}
}

// nodeAllows reports whether a node of size bytes and count elements takes one more element
// of n bytes (_quicklistNodeAllowInsert): Redis estimates the node's growth as n plus 8 bytes
// for a listpack, and n plus the entry header sizes for a ziplist.
func (w *Writer) nodeAllows(size, n, count int) bool {
	overhead := 8
	if w.version < 10 {
		overhead = 1 + 1 // previous-entry size and encoding, for short strings
		if n >= 254 {
			overhead += 4
		}
		switch {
		case n >= 16384:
			overhead += 4
		case n >= 64:
			overhead++
		}
	}
	newSize := size + n + overhead
	fill := w.limits.ListMaxListpackSize
	if fill < 0 {
		return newSize <= nodeSizeLimits[-fill-1]
	}
	return newSize <= nodeSafetyLimit && count+1 <= max(fill, 1)
}
