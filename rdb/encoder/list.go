package encoder

import "github.com/rdbgen/rdbgen/rdb"

// Lists are quicklists, as Redis writes them: a count of nodes, then each node, a listpack
// (type 18, RDB 10+, each node preceded by its container: 2 packed, 1 plain) or a ziplist
// (type 14, before). Nodes are filled the way quicklistPushTail fills them under
// ListMaxListpackSize, so the server keeps them as they are.
//
// The node count comes before the nodes, so each node is packed as its elements arrive and,
// once full, encoded into the spool (memory up to a bound, then a temporary file); at
// End the count is written and the nodes copied after it. A list of any length
// takes the memory of one node and the spool's bound.

// nodeSafetyLimit is the largest node when the fill is a count of elements.
const nodeSafetyLimit = 8192

// BeginList opens a list record of the given number of elements, each then added with
// AddElement. expireAtMS is the absolute expiry in Unix ms, or 0 for none.
func (w *Writer) BeginList(key []byte, elements uint64, expireAtMS int64) error {
	if err := w.beginCollection(listCollection, key, elements, expireAtMS); err != nil {
		return err
	}
	w.coll.nodeOpen, w.coll.nodeCount = false, 0
	w.coll.pack.ziplist = !w.has.has(rdb.ListpackEncodings)
	return nil
}

// AddElement appends an element to the open list.
func (w *Writer) AddElement(element []byte) error {
	if err := w.checkAdd(listCollection, element); err != nil {
		return err
	}
	c := &w.coll
	if w.isLargeElement(len(element)) {
		if err := w.finishListNode(); err != nil {
			return w.fail(err)
		}
		return w.spoolListNode(quicklistNodePlain, element)
	}
	if c.nodeOpen && !w.nodeAllows(c.pack.size(c.blob), len(element), c.pack.count) {
		if err := w.finishListNode(); err != nil {
			return w.fail(err)
		}
	}
	if !c.nodeOpen {
		c.blob = c.pack.begin(c.blob[:0])
		c.nodeOpen = true
	}
	c.blob = c.pack.add(c.blob, element)
	return nil
}

// finishListNode spools the open node, if any.
func (w *Writer) finishListNode() error {
	c := &w.coll
	if !c.nodeOpen {
		return nil
	}
	c.nodeOpen = false
	c.blob = c.pack.finish(c.blob)
	return w.spoolListNode(quicklistNodePacked, c.blob)
}

// spoolListNode encodes a node, its container (RDB 10+) and its bytes, into the spool.
func (w *Writer) spoolListNode(container uint64, node []byte) error {
	c := &w.coll
	b := c.enc[:0]
	if w.has.has(rdb.ListpackEncodings) {
		b = appendLength(b, container)
	}
	b = w.appendString(b, node)
	c.enc = b
	c.nodeCount++
	if err := w.spool.write(b); err != nil {
		return w.fail(err)
	}
	return nil
}

// endList writes the list: its node count, then the spooled nodes.
func (w *Writer) endList() error {
	c := &w.coll
	if err := w.finishListNode(); err != nil {
		return err
	}
	typ := byte(typeListQuicklist2)
	if !w.has.has(rdb.ListpackEncodings) {
		typ = typeListQuicklist
	}
	w.appendRecordHeader(c.key, c.expireAt, typ)
	w.buf = appendLength(w.buf, c.nodeCount)
	return w.copySpool(&w.spool)
}

// isLargeElement reports whether the server gives an element of n bytes a plain node of its
// own: when it exceeds the node size limit where the target does so (PlainListNodes), else
// from 1 GiB in quicklists of listpacks, and never in quicklists of ziplists (before RDB
// 10), which have no plain nodes.
func (w *Writer) isLargeElement(n int) bool {
	large := w.has.has(rdb.PlainListNodes)
	switch fill := w.limits.ListMaxListpackSize; {
	case large && fill < 0:
		return n > rdb.QuicklistNodeSizes[-fill-1]
	case large:
		return n > nodeSafetyLimit
	case w.has.has(rdb.ListpackEncodings):
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
	if !w.has.has(rdb.ListpackEncodings) {
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
		return newSize <= rdb.QuicklistNodeSizes[-fill-1]
	}
	return newSize <= nodeSafetyLimit && count+1 <= max(fill, 1)
}
