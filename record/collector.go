package record

// A Collector is a Sink that keeps the last record written to it, whole: the inverse of
// Record.WriteTo. It copies every byte it is given, so callers may reuse their buffers. It is
// for tests, verifiers and small records; a large collection costs memory in proportion.
type Collector struct {
	// Rec is the last record written (complete once End returns, or Begin for a string).
	Rec Record
	// Functions holds the code of every function library written, in order.
	Functions [][]byte
	// ModuleAux holds a copy of every module AUX data written, in order.
	ModuleAux []ModuleAux
	db        int
}

// BeginDB notes the database of the records that follow.
func (c *Collector) BeginDB(db int, _ Counts) error { c.db = db; return nil }

// Begin starts a record; a string or module value is complete.
func (c *Collector) Begin(h *Header) error {
	c.Rec = Record{DB: c.db, Key: clone(h.Key), Type: h.Type, ExpireAtMS: h.ExpireAtMS}
	switch {
	case h.Type.Whole():
		c.Rec.Value, c.Rec.ModuleID = clone(h.Value), h.ModuleID
	case h.Type.IsCollection():
		c.Rec.Members = make([]Member, 0, min(h.Len, 1<<16))
	}
	return nil
}

// Add adds a copy of a member.
func (c *Collector) Add(m *Member) error {
	cp := Member{Name: cloneNil(m.Name), Value: cloneNil(m.Value), Score: m.Score, ExpireAtMS: m.ExpireAtMS, ID: m.ID}
	if c.Rec.Type == Hash && cp.Value == nil {
		cp.Value = []byte{}
	}
	if c.Rec.Type != Stream && cp.Name == nil {
		cp.Name = []byte{}
	}
	if m.Fields != nil {
		cp.Fields = make([][]byte, len(m.Fields))
		for i, f := range m.Fields {
			cp.Fields[i] = clone(f)
		}
	}
	c.Rec.Members = append(c.Rec.Members, cp)
	return nil
}

// End completes the record, keeping a copy of a stream's tail.
func (c *Collector) End(t *StreamTail) error {
	if t != nil {
		c.Rec.Stream.Meta = t.Meta
		c.Rec.Stream.Groups = nil // none stays nil, as in a Record written by hand
		for i := range t.Groups {
			c.Rec.Stream.Groups = append(c.Rec.Stream.Groups, t.Groups[i].Clone())
		}
	}
	return nil
}

// WriteFunction keeps a copy of a function library's code.
func (c *Collector) WriteFunction(code []byte) error {
	c.Functions = append(c.Functions, clone(code))
	return nil
}

// WriteModuleAux keeps a copy of a module's AUX data.
func (c *Collector) WriteModuleAux(a *ModuleAux) error {
	c.ModuleAux = append(c.ModuleAux, a.Clone())
	return nil
}

func clone(b []byte) []byte { return append([]byte{}, b...) }

func cloneNil(b []byte) []byte {
	if b == nil {
		return nil
	}
	return clone(b)
}
