package memory

// The radix trees of streams (rax.c, the same from Redis 5.0 to Valkey 8.0): a tree's nodes
// are worked out by inserting its keys as raxGenericInsert does, and priced by size: a node
// is a 4-byte header, its bytes, padding to 8, a child pointer (compressed node) or one per
// byte, and a value pointer when a key ends there.

// A raxNode is a node of a simulated radix tree.
type raxNode struct {
	key      bool // a key ends here; every key of a stream's trees has a value
	compr    bool
	data     []byte
	children []*raxNode
}

// raxNodeLen returns the bytes rax allocates for a node of n bytes.
func raxNodeLen(n int, compr, key bool) int64 {
	b := 4 + n + (8-(n+4)%8)&7
	if compr {
		b += 8
	} else {
		b += 8 * n
	}
	if key {
		b += 8
	}
	return int64(b)
}

// A raxTree is a radix tree whose keys all have values (pointers).
type raxTree struct {
	head *raxNode
}

// insert adds key s (not already in the tree).
func (t *raxTree) insert(s []byte) {
	if t.head == nil {
		t.head = &raxNode{}
	}
	// raxLowWalk: follow s as far as the tree has it.
	parent := &t.head
	h := t.head
	i, j := 0, 0
	for len(h.data) > 0 && i < len(s) {
		if h.compr {
			for j = 0; j < len(h.data) && i < len(s); j, i = j+1, i+1 {
				if h.data[j] != s[i] {
					break
				}
			}
			if j != len(h.data) {
				break
			}
			j = 0
			parent = &h.children[0]
		} else {
			for j = 0; j < len(h.data); j++ {
				if h.data[j] == s[i] {
					break
				}
			}
			if j == len(h.data) {
				break
			}
			i++
			parent = &h.children[j]
			j = 0
		}
		h = *parent
	}
	switch {
	case i == len(s) && (!h.compr || j == 0):
		h.key = true
		return
	case h.compr && i != len(s): // ALGO 1: split the compressed node at j
		split := &raxNode{data: []byte{h.data[j]}}
		next := h.children[0]
		if post := h.data[j+1:]; len(post) > 0 {
			next = &raxNode{compr: len(post) > 1, data: append([]byte(nil), post...), children: []*raxNode{next}}
		}
		split.children = []*raxNode{next}
		if j == 0 {
			split.key = h.key
			*parent = split
		} else {
			*parent = &raxNode{compr: j > 1, key: h.key, data: append([]byte(nil), h.data[:j]...), children: []*raxNode{split}}
		}
		h = split
	case h.compr: // ALGO 2: the key ends inside the compressed node
		post := &raxNode{compr: len(h.data)-j > 1, key: true, data: append([]byte(nil), h.data[j:]...), children: h.children}
		*parent = &raxNode{compr: j > 1, key: h.key, data: append([]byte(nil), h.data[:j]...), children: []*raxNode{post}}
		return
	}
	for i < len(s) {
		child := &raxNode{}
		if len(h.data) == 0 && len(s)-i > 1 {
			h.compr, h.data, h.children = true, append([]byte(nil), s[i:]...), []*raxNode{child}
			i = len(s)
		} else {
			// raxAddChild keeps the children in byte order.
			at := 0
			for at < len(h.data) && h.data[at] < s[i] {
				at++
			}
			h.data = append(h.data[:at], append([]byte{s[i]}, h.data[at:]...)...)
			h.children = append(h.children[:at], append([]*raxNode{child}, h.children[at:]...)...)
			i++
		}
		h = child
	}
	h.key = true
}

// bytes returns the tree's allocations: the rax, then every node, under a.
func (t *raxTree) bytes(a *allocator) int64 {
	b := a.size(raxSize)
	if t.head == nil {
		return b + a.size(raxNodeLen(0, false, false))
	}
	stack := []*raxNode{t.head}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], n.children...)
		b += a.size(raxNodeLen(len(n.data), n.compr, n.key))
	}
	return b
}
