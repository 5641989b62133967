package record

// Counts are the keys of one database, or of a file, and how many of them expire: a Sink's
// BeginDB takes them (the RESIZEDB hint of the RDB format), manifests and verifiers report
// them.
type Counts struct {
	Keys    uint64 `json:"keys"`
	Expires uint64 `json:"expires"`
}

// Add adds o to c.
func (c *Counts) Add(o Counts) { c.Keys += o.Keys; c.Expires += o.Expires }

// A Sink receives records, database by database; see the package doc for the order of the
// calls. The Header and Member a call is given are valid only during the call: a sink that
// keeps one copies it, and a sink never changes them.
type Sink interface {
	// BeginDB ends the open database, if any, and opens db; each database is opened once.
	// c holds its exact counts when the source knows them up front, zeros otherwise.
	BeginDB(db int, c Counts) error
	// Begin opens a key. A string (h.Type String) is whole in h: no Add or End follows.
	Begin(h *Header) error
	// Add adds one member to the open key.
	Add(m *Member) error
	// End closes the open key; t is its stream tail for a stream (perhaps zero), nil for
	// any other type.
	End(t *StreamTail) error
	// WriteFunction writes one function library (Redis 7.0+): its code, whose first line
	// names it ("#!lua name=mylib", see LibraryName). Libraries belong to no database and
	// filters keep them; a dump holds them before its first database. A sink that cannot
	// carry them returns an error wrapping ErrFunctionsUnsupported (see RefuseFunctions),
	// never drops them.
	WriteFunction(code []byte) error
	// WriteModuleAux writes one module's AUX data (opcode 247). Like libraries, it belongs
	// to no database, filters keep it, and a sink that cannot carry it returns an error
	// wrapping ErrModuleAuxUnsupported (see RefuseModuleAux), never drops it. Redis writes
	// the data a module saves before the keyspace before the first database, and the data
	// it saves after it after the last.
	WriteModuleAux(a *ModuleAux) error
}

// A KeyFilter is a Sink that takes the records of some keys alone (one shard's, say): a
// Source may ask Wants before it computes a record, and leave out, without computing it,
// the record of a key that Wants refused, which it must then not write. A Source that
// does not ask writes every record, and the sink drops the ones it does not want.
type KeyFilter interface {
	Sink
	Wants(key []byte) bool
}

// Pass is a Sink that passes every call on to Next: embed it in a wrapper and override
// only the calls the wrapper changes.
type Pass struct {
	Next Sink
}

// BeginDB passes the call on.
func (p Pass) BeginDB(db int, c Counts) error { return p.Next.BeginDB(db, c) }

// Begin passes the call on.
func (p Pass) Begin(h *Header) error { return p.Next.Begin(h) }

// Add passes the call on.
func (p Pass) Add(m *Member) error { return p.Next.Add(m) }

// End passes the call on.
func (p Pass) End(t *StreamTail) error { return p.Next.End(t) }

// WriteFunction passes the call on.
func (p Pass) WriteFunction(code []byte) error { return p.Next.WriteFunction(code) }

// WriteModuleAux passes the call on.
func (p Pass) WriteModuleAux(a *ModuleAux) error { return p.Next.WriteModuleAux(a) }

// Discard is a Sink that drops every record, library and module AUX: where a reader sends
// what it leaves out.
type Discard struct{}

// BeginDB drops it.
func (Discard) BeginDB(int, Counts) error { return nil }

// Begin drops it.
func (Discard) Begin(*Header) error { return nil }

// Add drops it.
func (Discard) Add(*Member) error { return nil }

// End drops it.
func (Discard) End(*StreamTail) error { return nil }

// WriteFunction drops it.
func (Discard) WriteFunction([]byte) error { return nil }

// WriteModuleAux drops it.
func (Discard) WriteModuleAux(*ModuleAux) error { return nil }

// A Gate is a Sink that passes whole keys on to Next or drops them: Keep decides at each
// key's Begin, and the members and End of a dropped key are dropped with it. Dropped counts
// the keys it dropped. Databases, libraries and module AUX data pass.
type Gate struct {
	Pass
	// Keep reports whether the key h opens goes on; an error stops the records.
	Keep     func(h *Header) (bool, error)
	Dropped  uint64
	dropping bool
}

// Begin passes h on when Keep wants it.
func (g *Gate) Begin(h *Header) error {
	keep, err := g.Keep(h)
	if err != nil {
		return err
	}
	if !keep {
		g.Dropped++
		g.dropping = !h.Type.Whole()
		return nil
	}
	g.dropping = false
	return g.Next.Begin(h)
}

// Add passes m on unless its key is dropped.
func (g *Gate) Add(m *Member) error {
	if g.dropping {
		return nil
	}
	return g.Next.Add(m)
}

// End passes the call on unless its key is dropped.
func (g *Gate) End(t *StreamTail) error {
	if g.dropping {
		g.dropping = false
		return nil
	}
	return g.Next.End(t)
}

// Tee returns a Sink that writes every call into each of sinks in turn, stopping at the
// first error.
func Tee(sinks ...Sink) Sink { return tee(sinks) }

type tee []Sink

func (t tee) BeginDB(db int, c Counts) error {
	for _, s := range t {
		if err := s.BeginDB(db, c); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) Begin(h *Header) error {
	for _, s := range t {
		if err := s.Begin(h); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) Add(m *Member) error {
	for _, s := range t {
		if err := s.Add(m); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) End(st *StreamTail) error {
	for _, s := range t {
		if err := s.End(st); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) WriteModuleAux(a *ModuleAux) error {
	for _, s := range t {
		if err := s.WriteModuleAux(a); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) WriteFunction(code []byte) error {
	for _, s := range t {
		if err := s.WriteFunction(code); err != nil {
			return err
		}
	}
	return nil
}

// A Count is a Sink that counts what passes through it on to Next (Discard when Next is
// nil): keys and expiring keys (in all, and of each database: DBs), members and stream
// entries, libraries, module AUX data.
type Count struct {
	Next      Sink
	Counts    Counts
	Members   uint64
	Functions uint64
	ModuleAux uint64
	db        int
	base      Counts         // Counts when the open database began
	dbs       map[int]Counts // the databases ended, by endDB
}

func (c *Count) next() Sink {
	if c.Next == nil {
		return Discard{}
	}
	return c.Next
}

// BeginDB counts the database that ends and passes the call on.
func (c *Count) BeginDB(db int, n Counts) error {
	c.endDB()
	c.db = db
	return c.next().BeginDB(db, n)
}

// endDB adds the keys counted since the open database began to its counts.
func (c *Count) endDB() {
	d := Counts{Keys: c.Counts.Keys - c.base.Keys, Expires: c.Counts.Expires - c.base.Expires}
	if d.Keys == 0 {
		return
	}
	if c.dbs == nil {
		c.dbs = map[int]Counts{}
	}
	n := c.dbs[c.db]
	n.Add(d)
	c.dbs[c.db] = n
	c.base = c.Counts
}

// DBs returns the keys, and keys with an expiry, counted in each database so far, as an RDB
// writer counts them: a database that got no key has no entry (one given in two sections
// adds up), and the map is nil until one gets a key. The map is the Count's own: copy it to
// keep it while records still pass.
func (c *Count) DBs() map[int]Counts {
	c.endDB()
	return c.dbs
}

// Begin counts a key.
func (c *Count) Begin(h *Header) error {
	c.Counts.Keys++
	if h.ExpireAtMS > 0 {
		c.Counts.Expires++
	}
	return c.next().Begin(h)
}

// Add counts a member.
func (c *Count) Add(m *Member) error { c.Members++; return c.next().Add(m) }

// End passes the call on.
func (c *Count) End(t *StreamTail) error { return c.next().End(t) }

// WriteFunction counts a library.
func (c *Count) WriteFunction(code []byte) error {
	c.Functions++
	return c.next().WriteFunction(code)
}

// WriteModuleAux counts a module's AUX data.
func (c *Count) WriteModuleAux(a *ModuleAux) error {
	c.ModuleAux++
	return c.next().WriteModuleAux(a)
}
