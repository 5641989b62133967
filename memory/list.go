package memory

import "github.com/rdbgen/rdbgen/rdb/encoder"

// Quicklist nodes as Redis 7.0 fills them (quicklistPushTail, _quicklistNodeAllowInsert):
// an element joins the tail node while the node's listpack plus the element's length plus
// 8 bytes stays within the node size of list-max-listpack-size (-1 to -5: 4 to 64 KiB), or,
// for a positive setting, while the node has fewer elements than it and stays within 8 KiB.
// Files the encoder writes for RDB 10+ hold these very nodes, which the loader keeps; a
// plain list or ziplist nodes (RDB 9) are refilled the same way, node by node.

// nodeSizes are the node limits of list-max-listpack-size -1 to -5 (optimization_level).
var nodeSizes = [...]int{4096, 8192, 16384, 32768, 65536}

const (
	nodeSafetyLimit = 8192    // SIZE_SAFETY_LIMIT
	nodeOverhead    = 8       // SIZE_ESTIMATE_OVERHEAD
	largeElement    = 1 << 30 // packed_threshold: a larger element is a plain node (7.0, 7.2)
)

// A quicklist counts the nodes of a list as its elements arrive.
type quicklist struct {
	fill  int   // list-max-listpack-size
	nodes int64 // nodes so far, the open one included
	plain int64 // plain nodes among them
	bytes int64 // allocations of the closed nodes' listpacks
	cur   int   // bytes of the open node's listpack; 0 when none is open
	count int   // elements in the open node
	a     *allocator
}

// push adds an element at the tail.
func (q *quicklist) push(e []byte) {
	if len(e) >= largeElement {
		q.finish()
		q.nodes++
		q.plain++
		q.bytes += q.a.size(int64(len(e)))
		return
	}
	if q.cur == 0 || !q.allows(len(e)) {
		q.finish()
		q.nodes++
		q.cur, q.count = encoder.ListpackOverhead, 0
	}
	q.cur += encoder.ListpackEntrySize(e)
	q.count++
}

// allows reports whether the open node takes an element of n bytes.
func (q *quicklist) allows(n int) bool {
	size := q.cur + n + nodeOverhead
	if q.fill < 0 {
		return size <= nodeSizes[min(-q.fill, len(nodeSizes))-1]
	}
	return size <= nodeSafetyLimit && q.count < q.fill
}

// finish closes the open node.
func (q *quicklist) finish() {
	if q.cur > 0 {
		q.bytes += q.a.size(int64(q.cur))
		q.cur = 0
	}
}
