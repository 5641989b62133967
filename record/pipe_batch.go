package record

// A batch holds calls of a Pipe, copied, to be passed on in order: the kind of each call,
// and the headers, members and stream tails they carry, whose bytes are in one arena.
type batch struct {
	kinds   []callKind
	strs    []stringCall // Begin of a plain string
	elems   []memberCall // Add of a member that is not a stream entry
	heads   []Header     // any other Begin: Key and Value in spans
	members []Member     // Add: Name, Value and Fields in spans
	tails   []StreamTail // End of a stream: the tail, its groups copied
	spans   []span       // the byte slices of the calls, in order
	arena   []byte
	fields  [][]byte // a stream entry's fields, rebuilt for each Add
}

// callKind is the Sink call a batch entry is.
type callKind uint8

const (
	callString  callKind = iota // Begin of a string with no field but its key, value, expiry
	callMember                  // Add of a member without a stream id or fields
	callBegin                   // Begin: a head, spans Key, Value
	callAdd                     // Add: a member, spans Name, Value, then a count and the fields
	callEnd                     // End(nil)
	callEndTail                 // End of a stream: a tail
)

// stringCall is the Begin of a plain string: its key and value, one after the other in the
// arena, and its expiry.
type stringCall struct {
	from, mid, to int
	expireAtMS    int64
}

// memberCall is the Add of a member that is not a stream entry.
type memberCall struct {
	name, value span
	score       float64
	expireAtMS  int64
}

// span is a byte slice held in the arena: arena[from:to], or nil when from is -1.
type span struct{ from, to int }

// keep copies s into the arena and notes its span.
func (b *batch) keep(s []byte) { b.spans = append(b.spans, b.span(s)) }

// bytes returns the slice of span i.
func (b *batch) bytes(i int) []byte { return b.slice(b.spans[i]) }

// span copies s into the arena and returns its span.
func (b *batch) span(s []byte) span {
	if s == nil {
		return span{-1, -1}
	}
	from := len(b.arena)
	b.arena = append(b.arena, s...)
	return span{from, len(b.arena)}
}

// slice returns the bytes of s.
func (b *batch) slice(s span) []byte {
	if s.from < 0 {
		return nil
	}
	return b.arena[s.from:s.to:s.to]
}

func (b *batch) begin(h *Header) {
	if h.Type == String && h.Value != nil && h.ModuleID == 0 && h.Len == 0 && h.MinFieldExpireAtMS == 0 && !h.FieldTTLs && h.Key != nil {
		from := len(b.arena)
		b.arena = append(append(b.arena, h.Key...), h.Value...)
		b.kinds = append(b.kinds, callString)
		b.strs = append(b.strs, stringCall{from, from + len(h.Key), len(b.arena), h.ExpireAtMS})
		return
	}
	b.kinds = append(b.kinds, callBegin)
	b.heads = append(b.heads, *h)
	b.keep(h.Key)
	b.keep(h.Value)
}

func (b *batch) add(m *Member) {
	if m.Fields == nil && m.ID == (StreamID{}) {
		b.kinds = append(b.kinds, callMember)
		b.elems = append(b.elems, memberCall{b.span(m.Name), b.span(m.Value), m.Score, m.ExpireAtMS})
		return
	}
	b.kinds = append(b.kinds, callAdd)
	b.members = append(b.members, *m)
	b.keep(m.Name)
	b.keep(m.Value)
	if m.Fields == nil {
		b.spans = append(b.spans, span{-1, -1})
		return
	}
	b.spans = append(b.spans, span{len(m.Fields), 0})
	for _, f := range m.Fields {
		b.keep(f)
	}
}

func (b *batch) end(t *StreamTail) {
	if t == nil {
		b.kinds = append(b.kinds, callEnd)
		return
	}
	b.kinds = append(b.kinds, callEndTail)
	cp := StreamTail{Meta: t.Meta}
	if t.Groups != nil {
		cp.Groups = make([]StreamGroup, len(t.Groups))
		for i := range t.Groups {
			cp.Groups[i] = t.Groups[i].Clone()
		}
	}
	b.tails = append(b.tails, cp)
}

// replay makes the batch's calls on s, in order, up to the first error.
func (b *batch) replay(s Sink) error {
	var hi, mi, ti, si, stri, ei int
	var err error
	str := Header{Type: String}
	var elem Member
	for _, k := range b.kinds {
		switch k {
		case callString:
			c := &b.strs[stri]
			stri++
			str.Key, str.Value, str.ExpireAtMS = b.arena[c.from:c.mid:c.mid], b.arena[c.mid:c.to:c.to], c.expireAtMS
			err = s.Begin(&str)
		case callMember:
			c := &b.elems[ei]
			ei++
			elem.Name, elem.Value, elem.Score, elem.ExpireAtMS = b.slice(c.name), b.slice(c.value), c.score, c.expireAtMS
			err = s.Add(&elem)
		case callBegin:
			h := &b.heads[hi]
			h.Key, h.Value = b.bytes(si), b.bytes(si+1)
			hi, si = hi+1, si+2
			err = s.Begin(h)
		case callAdd:
			m := &b.members[mi]
			m.Name, m.Value, m.Fields = b.bytes(si), b.bytes(si+1), nil
			n := b.spans[si+2]
			mi, si = mi+1, si+3
			if n.from >= 0 {
				b.fields = b.fields[:0]
				for range n.from {
					b.fields = append(b.fields, b.bytes(si))
					si++
				}
				m.Fields = b.fields
			}
			err = s.Add(m)
		case callEnd:
			err = s.End(nil)
		case callEndTail:
			err = s.End(&b.tails[ti])
			ti++
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// maxKeptArena is the largest arena a batch keeps for the next: a huge value does not
// keep its memory for the rest of the run.
const maxKeptArena = 4 << 20

// reset empties the batch for reuse.
func (b *batch) reset() {
	clear(b.heads) // drop the references the replay set
	clear(b.members)
	clear(b.tails)
	b.kinds, b.strs, b.elems = b.kinds[:0], b.strs[:0], b.elems[:0]
	b.heads, b.members, b.tails, b.spans = b.heads[:0], b.members[:0], b.tails[:0], b.spans[:0]
	b.arena = b.arena[:0]
	if cap(b.arena) > maxKeptArena {
		b.arena = nil
	}
	clear(b.fields)
	b.fields = b.fields[:0]
}
