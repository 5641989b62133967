package rewrite

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"

	"github.com/rdbgen/rdbgen/record"
)

// A value's replacement is drawn from a state that HMAC-SHA256, keyed by the seed, makes of
// the value: the same value gives the same replacement in every key, field and file written
// with the same seed, and nothing is remembered from one value to the next. Without the seed,
// the replacements tell nothing of the values.
//
// The members of a set or sorted set and the fields of a hash must stay distinct. While a
// rewritten collection is open, the Sink remembers its rewritten members (memory in
// proportion to the largest such collection, released at its end) and refuses a repeat with
// ErrCollision: two inputs that give one output would also merge the keys they name. Renamed
// keys are checked against each other by Unique.

// ErrCollision is returned when two distinct members or fields of one collection are rewritten
// to the same value.
var ErrCollision = errors.New("two members rewritten to the same value")

// Stats count what a Sink rewrote.
type Stats struct {
	Keys    uint64 // records passed on
	Renamed uint64 // keys renamed
	Values  uint64 // string values, members, field names and field values replaced
}

// A Sink is a record.Sink that rewrites the records it receives by its rules and passes them
// to the next Sink. Records that no rule matches pass unchanged. The slices it passes on are
// its own buffers, valid during the call only, as every Sink's arguments are. It keeps the
// first error it meets and returns it from every call after. It is not safe for concurrent use.
type Sink struct {
	record.Pass
	rules []*Rule
	mac   hash.Hash
	sum   []byte
	err   error
	stats Stats

	// The open collection: its rule (nil when none matched), its type, its key as received
	// (for messages) and the rewritten members seen so far when they must stay distinct.
	rule *Rule
	typ  record.Type
	key  []byte
	seen map[string]struct{}

	// What is passed on: a copy of the header or member received, rewritten.
	h record.Header
	m record.Member

	keyBuf, valBuf, nameBuf []byte
	fields                  [][]byte
	spans                   []span
}

// span is where in valBuf a stream entry's rewritten value k starts.
type span struct{ k, from int }

// New returns a Sink that rewrites records by rules and writes them to next. It reads
// rules.Seed now: change it before calling New.
func New(next record.Sink, rules *Rules) (*Sink, error) {
	if next == nil {
		return nil, errors.New("rewrite: nil next sink")
	}
	if rules == nil {
		return nil, errors.New("rewrite: nil rules")
	}
	var key [8]byte
	binary.BigEndian.PutUint64(key[:], rules.Seed)
	return &Sink{Pass: record.Pass{Next: next}, rules: rules.Rules, mac: hmac.New(sha256.New, key[:])}, nil
}

// Source returns the records of src rewritten by rules, as a Sink of New writes them.
func Source(src record.Source, rules *Rules) record.Source {
	return record.Through(src, func(next record.Sink) (record.Sink, error) { return New(next, rules) })
}

// Unique returns the records of src rewritten by rules, as Source does; when a rule renames
// keys, a key that renaming makes twice in its database (two keys renamed to one name, or
// a key renamed to another's) is a duplicate like any other, handled by on (see
// record.Distinct, returned to count what it left out; nil when no rule renames).
func Unique(src record.Source, rules *Rules, on record.OnDuplicate) (record.Source, *record.Distinct) {
	out := Source(src, rules)
	if !rules.Renames() {
		return out, nil
	}
	d := &record.Distinct{Src: out, On: on, What: "--rewrite renamed two keys to one name"}
	return d, d
}

// Stats returns the counts so far.
func (s *Sink) Stats() Stats { return s.stats }

// state hashes an input value into the state a generator draws its replacement from.
func (s *Sink) state(input []byte) uint64 {
	s.mac.Reset()
	s.mac.Write(input)
	s.sum = s.mac.Sum(s.sum[:0])
	return binary.BigEndian.Uint64(s.sum)
}

// apply appends g's replacement for input to dst.
func (s *Sink) apply(dst []byte, g *gen, input []byte) []byte {
	s.stats.Values++
	return g.g.Append(dst, s.state(input))
}

// find returns the first rule for a key of type t (of module type module, a module value),
// or nil.
func (s *Sink) find(key []byte, t record.Type, module uint64) *Rule {
	for _, r := range s.rules {
		if (r.Type == "" || r.Type == t) && (r.Module == "" || r.Module == record.ModuleName(module)) && r.key.matches(key) {
			return r
		}
	}
	return nil
}

// renamed returns the key the rule gives key.
func (s *Sink) renamed(r *Rule, key []byte) []byte {
	if r == nil || r.rename == nil {
		return key
	}
	s.stats.Renamed++
	s.keyBuf = s.rename(s.keyBuf[:0], r, key)
	return s.keyBuf
}

// rename appends to dst the key that r's rename makes of key.
func (s *Sink) rename(dst []byte, r *Rule, key []byte) []byte {
	mid := key[len(r.key.prefix) : len(key)-len(r.key.suffix)]
	dst = append(dst, r.key.prefix...)
	dst = s.apply(dst, r.rename, mid)
	return append(dst, r.key.suffix...)
}

// keyRef appends to dst the name a key named name gets: renamed by the first rule whose
// pattern matches it, whatever its type, if that rule renames keys; name itself otherwise.
func (s *Sink) keyRef(dst []byte, name []byte) []byte {
	for _, r := range s.rules {
		if r.key.matches(name) {
			if r.rename != nil {
				return s.rename(dst, r, name)
			}
			break
		}
	}
	return append(dst, name...)
}

// fail keeps err as the Sink's error.
func (s *Sink) fail(err error) error {
	if s.err == nil {
		s.err = err
	}
	return s.err
}

// BeginDB passes the database on: rewriting changes no counts.
func (s *Sink) BeginDB(db int, c record.Counts) error {
	if s.err != nil {
		return s.err
	}
	return s.fail(s.Next.BeginDB(db, c))
}

// Begin rewrites a key's name and, for a string, its value, and readies the rewriting of a
// collection's members and the check that they stay distinct.
func (s *Sink) Begin(h *record.Header) error {
	if s.err != nil {
		return s.err
	}
	s.stats.Keys++
	r := s.find(h.Key, h.Type, h.ModuleID)
	s.h = *h
	if h.Type == record.String {
		switch {
		case r != nil && r.value != nil:
			s.valBuf = s.apply(s.valBuf[:0], r.value, h.Value)
			s.h.Value = s.valBuf
		case r != nil && r.valueIsKey:
			s.valBuf = s.keyRef(s.valBuf[:0], h.Value)
			s.h.Value = s.valBuf
		}
		s.h.Key = s.renamed(r, h.Key)
		return s.fail(s.Next.Begin(&s.h))
	}
	if h.Type == record.Module { // whole in its header, its value the module's: renamed alone
		s.h.Key = s.renamed(r, h.Key)
		return s.fail(s.Next.Begin(&s.h))
	}
	t := h.Type
	s.rule, s.typ, s.key, s.seen = r, t, append(s.key[:0], h.Key...), nil
	distinct := r != nil && ((r.members != nil || r.membersAreKeys) && (t == record.Set || t == record.ZSet) || r.fieldNames != nil && t == record.Hash)
	if distinct && h.Len > 1 {
		s.seen = make(map[string]struct{}, min(h.Len, 1<<16))
	}
	s.h.Key = s.renamed(r, h.Key)
	return s.fail(s.Next.Begin(&s.h))
}

// distinct refuses a rewritten member equal to an earlier one of the open collection.
func (s *Sink) distinct(kind string, input, output []byte) error {
	if s.seen == nil {
		return nil
	}
	if _, dup := s.seen[string(output)]; dup {
		return fmt.Errorf("rewrite key %q: %s %q became %q like an earlier one: %w (give it a generator with more values)", s.key, kind, input, output, ErrCollision)
	}
	s.seen[string(output)] = struct{}{}
	return nil
}

// member rewrites a list element or a set or sorted-set member.
func (s *Sink) member(kind string, m []byte) ([]byte, error) {
	switch r := s.rule; {
	case r == nil:
		return m, nil
	case r.members != nil:
		s.nameBuf = s.apply(s.nameBuf[:0], r.members, m)
	case r.membersAreKeys:
		s.nameBuf = s.keyRef(s.nameBuf[:0], m)
	default:
		return m, nil
	}
	return s.nameBuf, s.distinct(kind, m, s.nameBuf)
}

// field rewrites a hash field's name and value.
func (s *Sink) field(field, value []byte) ([]byte, []byte, error) {
	r := s.rule
	if r == nil {
		return field, value, nil
	}
	if g := r.fieldFor(field); g != nil {
		s.valBuf = s.apply(s.valBuf[:0], g, value)
		value = s.valBuf
	}
	if r.fieldNames != nil {
		s.nameBuf = s.apply(s.nameBuf[:0], r.fieldNames, field)
		if err := s.distinct("field", field, s.nameBuf); err != nil {
			return nil, nil, err
		}
		field = s.nameBuf
	}
	return field, value, nil
}

// fieldFor returns the generator of the first field pattern that name matches, or nil.
func (r *Rule) fieldFor(name []byte) *gen {
	for k := range r.fields {
		if r.fields[k].name.matches(name) {
			return r.fields[k].gen
		}
	}
	return nil
}

// Add adds a member of the open key, rewritten: a hash field's name and value, a list
// element, a set or sorted-set member (the score stays), a stream entry's field values (the
// id and field names stay). A field's expiry stays.
func (s *Sink) Add(m *record.Member) error {
	if s.err != nil {
		return s.err
	}
	if s.rule == nil {
		return s.fail(s.Next.Add(m))
	}
	s.m = *m
	var err error
	switch s.typ {
	case record.Hash:
		s.m.Name, s.m.Value, err = s.field(m.Name, m.Value)
	case record.List:
		s.m.Name, err = s.member("element", m.Name)
	case record.Stream:
		s.m.Fields = s.entry(m.Fields)
	default:
		s.m.Name, err = s.member("member", m.Name)
	}
	if err != nil {
		return s.fail(err)
	}
	return s.fail(s.Next.Add(&s.m))
}

// entry returns a stream entry's fields with the values the rule's field patterns rewrite.
func (s *Sink) entry(fields [][]byte) [][]byte {
	r := s.rule
	if r.fields == nil {
		return fields
	}
	s.fields = append(s.fields[:0], fields...)
	s.valBuf = s.valBuf[:0]
	s.spans = s.spans[:0]
	for k := 1; k < len(fields); k += 2 {
		if g := r.fieldFor(fields[k-1]); g != nil {
			from := len(s.valBuf)
			s.valBuf = s.apply(s.valBuf, g, fields[k])
			s.spans = append(s.spans, span{k, from})
		}
	}
	// valBuf may have moved while it grew: slice it once it is complete.
	for i, sp := range s.spans {
		end := len(s.valBuf)
		if i+1 < len(s.spans) {
			end = s.spans[i+1].from
		}
		s.fields[sp.k] = s.valBuf[sp.from:end:end]
	}
	return s.fields
}

// End closes the open key; a stream's tail passes unchanged.
func (s *Sink) End(t *record.StreamTail) error {
	if s.err != nil {
		return s.err
	}
	s.rule, s.seen = nil, nil
	return s.fail(s.Next.End(t))
}

var _ record.Sink = (*Sink)(nil)

// WriteFunction passes a function library on unchanged: rules rewrite keys and values.
func (s *Sink) WriteFunction(code []byte) error {
	if s.err != nil {
		return s.err
	}
	return s.fail(s.Next.WriteFunction(code))
}
